#include "pam_shim.h"
