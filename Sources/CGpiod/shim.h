#ifndef WAVEDIAL_CGPIOD_SHIM_H
#define WAVEDIAL_CGPIOD_SHIM_H
/*
 * One small line API over both libgpiod APIs, chosen by the installed <gpiod.h>: libgpiod 1.5/1.6
 * (Debian 12, Raspberry Pi OS bookworm) and libgpiod 2.x (Debian 13, Raspberry Pi OS trixie), which
 * removed the 1.x line calls. Swift cannot see the preprocessor, so the choice is made here and Swift
 * (Hardware's GpiodChip) calls only these functions, whichever library it was built against.
 *
 * Ownership, as libgpiod 2 has it: a request is released with wd_gpio_request_release before its chip
 * is closed (libgpiod 1.x frees a chip's lines with the chip). Functions that fail return NULL or -1
 * with errno set by the library.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gpiod.h>

/* The internal resistor of an input line. */
enum wd_gpio_bias { WD_GPIO_BIAS_AS_IS, WD_GPIO_BIAS_PULL_UP, WD_GPIO_BIAS_PULL_DOWN, WD_GPIO_BIAS_DISABLED };

/* One edge of a requested input line, timestamped by the kernel on CLOCK_MONOTONIC. */
struct wd_gpio_edge {
    bool rising;
    uint64_t timestamp_ns;
};

/* A requested line: input with both edges, or output. */
struct wd_gpio_request;

/* The kernel keeps this many edges of a line between reads where the API lets us choose
   (libgpiod 1.x: the kernel's fixed 16). */
#define WD_GPIO_EVENT_BUFFER_SIZE 64

/* Only libgpiod 1.x defines this macro: it is how the two headers tell themselves apart. */
#ifdef GPIOD_LINE_BULK_MAX_LINES
#include "gpiod1.h"
#else
#include "gpiod2.h"
#endif

#endif
