#ifndef WAVEDIAL_CEVDEV_SHIM_H
#define WAVEDIAL_CEVDEV_SHIM_H
// Linux input devices (/dev/input/event*, evdev): the IR receiver's keys, from rc-core; and uinput
// (/dev/uinput), with which the tests make such a device.
#include <string.h>
#include <sys/ioctl.h>
#include <linux/input.h>
#include <linux/uinput.h>

// The ioctls are variadic and their numbers macros (_IOC), which Swift cannot call or import.

// EVIOCGNAME: the device's name (rc-core's receivers are e.g. "gpio_ir_recv"), NUL-terminated in `name`.
static inline int CEvdev_deviceName(int fd, char *name, unsigned int capacity) {
    if (capacity == 0) return -1;
    memset(name, 0, capacity);
    return ioctl(fd, EVIOCGNAME(capacity - 1), name);
}

// UI_SET_EVBIT / UI_SET_KEYBIT: the event types and keys a uinput device will send.
static inline int CEvdev_uinputEnableType(int fd, int type) { return ioctl(fd, UI_SET_EVBIT, type); }
static inline int CEvdev_uinputEnableKey(int fd, int key) { return ioctl(fd, UI_SET_KEYBIT, key); }

// UI_DEV_SETUP then UI_DEV_CREATE: the device appears, named `name`, as /dev/input/eventN.
static inline int CEvdev_uinputCreate(int fd, const char *name) {
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x0001;
    setup.id.product = 0x0001;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) return -1;
    return ioctl(fd, UI_DEV_CREATE);
}

// UI_DEV_DESTROY: the device goes away (its readers see ENODEV).
static inline int CEvdev_uinputDestroy(int fd) { return ioctl(fd, UI_DEV_DESTROY); }
#endif
