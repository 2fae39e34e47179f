#include "CSesameLinux.h"
