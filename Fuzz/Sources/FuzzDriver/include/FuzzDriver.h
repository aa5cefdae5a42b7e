// libFuzzer's entry for programs that have their own main.
//
// SwiftPM links an executable target with `main` defined as the target's own entry
// point (`--defsym main=<Target>_main`), which hides the `main` that -sanitize=fuzzer
// links in. Each fuzz target's main.swift therefore starts libFuzzer itself, with this
// function, which libFuzzer provides.
#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
