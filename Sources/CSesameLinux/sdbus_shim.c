#include "sdbus_shim.h"
