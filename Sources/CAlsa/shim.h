#ifndef WAVEDIAL_CALSA_SHIM_H
#define WAVEDIAL_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>

// alsa-lib prints its errors ("cannot find card '0'", "Unknown PCM default") to stderr unless a handler
// is set, and the handler is variadic, which Swift cannot define. This one formats the message and hands
// it to CAlsa_errorMessage, which the Audio module defines in Swift (@_cdecl): it logs it. Stateless, so
// every copy the header makes of it is the same.
void CAlsa_errorMessage(const char *file, int line, const char *function, int err, const char *message);

static void CAlsa_forwardError(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    char message[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    CAlsa_errorMessage(file, line, function, err, message);
}

// Routes alsa-lib's error messages to CAlsa_errorMessage, process-wide.
static inline int CAlsa_routeErrors(void) {
    return snd_lib_error_set_handler(CAlsa_forwardError);
}
#endif
