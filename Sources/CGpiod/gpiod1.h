/* The wd_gpio_* API over libgpiod 1.5/1.6 (gpiod_line_*). Included by shim.h only. */

static inline const char *wd_gpio_library(void) { return gpiod_version_string(); }
static inline int wd_gpio_api_major(void) { return 1; }

static inline struct gpiod_chip *wd_gpio_chip_open(const char *path) { return gpiod_chip_open(path); }
static inline void wd_gpio_chip_close(struct gpiod_chip *chip) { gpiod_chip_close(chip); }

/* Copies the chip's kernel name ("gpiochip0") and label ("pinctrl-bcm2711") into the buffers. */
static inline int wd_gpio_chip_describe(struct gpiod_chip *chip, char *name, size_t name_size,
                                        char *label, size_t label_size, unsigned *lines) {
    snprintf(name, name_size, "%s", gpiod_chip_name(chip));
    snprintf(label, label_size, "%s", gpiod_chip_label(chip));
    *lines = gpiod_chip_num_lines(chip);
    return 0;
}

/* The offset of the line the device tree names `name`, or -1 (errno ENOENT when there is none). */
static inline int wd_gpio_chip_find_line(struct gpiod_chip *chip, const char *name) {
    struct gpiod_line *line = gpiod_chip_find_line(chip, name);
    return line ? (int)gpiod_line_offset(line) : -1;
}

/* Copies the consumer holding line `offset` into `consumer`: 1 if held, 0 if free, -1 on error. */
static inline int wd_gpio_line_consumer(struct gpiod_chip *chip, unsigned offset, char *consumer, size_t size) {
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    if (!line || gpiod_line_update(line) != 0) return -1;
    if (!gpiod_line_is_used(line)) return 0;
    snprintf(consumer, size, "%s", gpiod_line_consumer(line) ? gpiod_line_consumer(line) : "");
    return 1;
}

/* The request is the line itself: libgpiod 1.x keeps its state in the chip's line objects. */
static inline struct gpiod_line *wd_gpio_line_(struct wd_gpio_request *request) { return (struct gpiod_line *)request; }

static inline struct wd_gpio_request *wd_gpio_request_input(struct gpiod_chip *chip, unsigned offset, const char *consumer,
                                                            enum wd_gpio_bias bias, bool active_low) {
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    if (!line) return NULL;
    int flags = active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
    switch (bias) {
    case WD_GPIO_BIAS_PULL_UP: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP; break;
    case WD_GPIO_BIAS_PULL_DOWN: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN; break;
    case WD_GPIO_BIAS_DISABLED: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE; break;
    case WD_GPIO_BIAS_AS_IS: break;
    }
    if (gpiod_line_request_both_edges_events_flags(line, consumer, flags) != 0) return NULL;
    return (struct wd_gpio_request *)line;
}

static inline struct wd_gpio_request *wd_gpio_request_output(struct gpiod_chip *chip, unsigned offset, const char *consumer,
                                                             bool value) {
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    if (!line || gpiod_line_request_output(line, consumer, value ? 1 : 0) != 0) return NULL;
    return (struct wd_gpio_request *)line;
}

static inline void wd_gpio_request_release(struct wd_gpio_request *request) { gpiod_line_release(wd_gpio_line_(request)); }
static inline int wd_gpio_request_fd(struct wd_gpio_request *request) { return gpiod_line_event_get_fd(wd_gpio_line_(request)); }
static inline int wd_gpio_get_value(struct wd_gpio_request *request) { return gpiod_line_get_value(wd_gpio_line_(request)); }
static inline int wd_gpio_set_value(struct wd_gpio_request *request, bool value) {
    return gpiod_line_set_value(wd_gpio_line_(request), value ? 1 : 0);
}

/* Reads up to `max` pending edges (at most 16 a call), oldest first; the count, or -1. */
static inline int wd_gpio_read_edges(struct wd_gpio_request *request, struct wd_gpio_edge *edges, unsigned max) {
    struct gpiod_line_event events[16];
    int count = gpiod_line_event_read_multiple(wd_gpio_line_(request), events, max < 16 ? max : 16);
    for (int i = 0; i < count; i++) {
        edges[i].rising = events[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
        edges[i].timestamp_ns = (uint64_t)events[i].ts.tv_sec * 1000000000u + (uint64_t)events[i].ts.tv_nsec;
    }
    return count;
}
