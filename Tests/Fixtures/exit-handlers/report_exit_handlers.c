/* Preloaded (LD_PRELOAD) into a process under test: says on stderr when the process's exit handlers run.
 * exit() runs the destructors of every loaded object, this one's included; _exit() runs none. */
#include <unistd.h>

__attribute__((destructor)) static void report_exit_handlers(void) {
    static const char line[] = "exit handlers ran\n";
    (void)!write(STDERR_FILENO, line, sizeof line - 1);
}
