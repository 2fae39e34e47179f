// Integration tests against real fprintd and PAM live in Fprintd/ and PAM/.
