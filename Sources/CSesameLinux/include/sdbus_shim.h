#ifndef SESAME_SDBUS_SHIM_H
#define SESAME_SDBUS_SHIM_H
// sd-bus, loaded at run time (filled by the fprintd backend).
#endif
