#ifndef WAVEDIAL_CI2CDEV_SHIM_H
#define WAVEDIAL_CI2CDEV_SHIM_H
// Linux i2c-dev (/dev/i2c-N): the HD44780 backpack's bus.
#include <sys/ioctl.h>
#include <linux/i2c-dev.h>

// ioctl is variadic, which Swift cannot call; this selects the target address for later write()s.
static inline int CI2CDev_selectTarget(int fd, unsigned long address) {
    return ioctl(fd, I2C_SLAVE, address);
}
#endif
