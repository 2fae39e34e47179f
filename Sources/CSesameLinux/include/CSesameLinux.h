#ifndef CSESAMELINUX_H
#define CSESAMELINUX_H
// Filled by the fprintd (sd-bus) and PAM backends. Nothing here is linked at
// build time: libraries are opened with dlopen at run time.
#endif
