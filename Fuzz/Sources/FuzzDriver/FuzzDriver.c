// Nothing to compile: FuzzDriver.h declares a function that libFuzzer defines.
#include "FuzzDriver.h"
