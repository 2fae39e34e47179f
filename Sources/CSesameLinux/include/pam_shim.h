#ifndef SESAME_PAM_SHIM_H
#define SESAME_PAM_SHIM_H
// libpam, loaded at run time (filled by the PAM backend).
#endif
