/* The wd_gpio_* API over libgpiod 2.x (line settings, configs and requests). Included by shim.h only. */

static inline const char *wd_gpio_library(void) { return gpiod_api_version(); }
static inline int wd_gpio_api_major(void) { return 2; }

static inline struct gpiod_chip *wd_gpio_chip_open(const char *path) { return gpiod_chip_open(path); }
static inline void wd_gpio_chip_close(struct gpiod_chip *chip) { gpiod_chip_close(chip); }

/* Copies the chip's kernel name ("gpiochip0") and label ("pinctrl-bcm2711") into the buffers. */
static inline int wd_gpio_chip_describe(struct gpiod_chip *chip, char *name, size_t name_size,
                                        char *label, size_t label_size, unsigned *lines) {
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    if (!info) return -1;
    snprintf(name, name_size, "%s", gpiod_chip_info_get_name(info));
    snprintf(label, label_size, "%s", gpiod_chip_info_get_label(info));
    *lines = (unsigned)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    return 0;
}

/* The offset of the line the device tree names `name`, or -1 (errno ENOENT when there is none). */
static inline int wd_gpio_chip_find_line(struct gpiod_chip *chip, const char *name) {
    return gpiod_chip_get_line_offset_from_name(chip, name);
}

/* Copies the consumer holding line `offset` into `consumer`: 1 if held, 0 if free, -1 on error. */
static inline int wd_gpio_line_consumer(struct gpiod_chip *chip, unsigned offset, char *consumer, size_t size) {
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip, offset);
    if (!info) return -1;
    int used = gpiod_line_info_is_used(info);
    if (used) {
        const char *holder = gpiod_line_info_get_consumer(info);
        snprintf(consumer, size, "%s", holder ? holder : "");
    }
    gpiod_line_info_free(info);
    return used;
}

/* What a struct wd_gpio_request points to. Swift sees wd_gpio_request as opaque, as with libgpiod 1.x. */
struct wd_gpiod2_request {
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *edges; /* NULL for an output */
    unsigned offset;
};

static inline struct wd_gpiod2_request *wd_gpiod2_(struct wd_gpio_request *request) {
    return (struct wd_gpiod2_request *)request;
}

/* Requests one line with `settings`; frees the settings. */
static inline struct wd_gpio_request *wd_gpio_request_(struct gpiod_chip *chip, unsigned offset, const char *consumer,
                                                       struct gpiod_line_settings *settings, bool input) {
    struct wd_gpiod2_request *request = calloc(1, sizeof *request);
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    int saved = ENOMEM;
    if (request && settings && line_config && request_config
        && gpiod_line_config_add_line_settings(line_config, &offset, 1, settings) == 0) {
        gpiod_request_config_set_consumer(request_config, consumer);
        if (input) gpiod_request_config_set_event_buffer_size(request_config, WD_GPIO_EVENT_BUFFER_SIZE);
        request->offset = offset;
        request->request = gpiod_chip_request_lines(chip, request_config, line_config);
        saved = errno;
        if (request->request && input) {
            request->edges = gpiod_edge_event_buffer_new(WD_GPIO_EVENT_BUFFER_SIZE);
            if (!request->edges) {
                saved = ENOMEM;
                gpiod_line_request_release(request->request);
                request->request = NULL;
            }
        }
    } else if (errno != 0) {
        saved = errno;
    }
    gpiod_request_config_free(request_config);
    gpiod_line_config_free(line_config);
    gpiod_line_settings_free(settings);
    if (request && !request->request) {
        free(request);
        request = NULL;
    }
    if (!request) errno = saved;
    return (struct wd_gpio_request *)request;
}

static inline struct wd_gpio_request *wd_gpio_request_input(struct gpiod_chip *chip, unsigned offset, const char *consumer,
                                                            enum wd_gpio_bias bias, bool active_low) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (settings) {
        gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
        gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH);
        gpiod_line_settings_set_active_low(settings, active_low);
        switch (bias) {
        case WD_GPIO_BIAS_PULL_UP: gpiod_line_settings_set_bias(settings, GPIOD_LINE_BIAS_PULL_UP); break;
        case WD_GPIO_BIAS_PULL_DOWN: gpiod_line_settings_set_bias(settings, GPIOD_LINE_BIAS_PULL_DOWN); break;
        case WD_GPIO_BIAS_DISABLED: gpiod_line_settings_set_bias(settings, GPIOD_LINE_BIAS_DISABLED); break;
        case WD_GPIO_BIAS_AS_IS: break;
        }
    }
    return wd_gpio_request_(chip, offset, consumer, settings, true);
}

static inline struct wd_gpio_request *wd_gpio_request_output(struct gpiod_chip *chip, unsigned offset, const char *consumer,
                                                             bool value) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (settings) {
        gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
        gpiod_line_settings_set_output_value(settings, value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
    }
    return wd_gpio_request_(chip, offset, consumer, settings, false);
}

static inline void wd_gpio_request_release(struct wd_gpio_request *handle) {
    struct wd_gpiod2_request *request = wd_gpiod2_(handle);
    gpiod_line_request_release(request->request);
    gpiod_edge_event_buffer_free(request->edges);
    free(request);
}

static inline int wd_gpio_request_fd(struct wd_gpio_request *handle) { return gpiod_line_request_get_fd(wd_gpiod2_(handle)->request); }

static inline int wd_gpio_get_value(struct wd_gpio_request *handle) {
    struct wd_gpiod2_request *request = wd_gpiod2_(handle);
    return (int)gpiod_line_request_get_value(request->request, request->offset);
}

static inline int wd_gpio_set_value(struct wd_gpio_request *handle, bool value) {
    struct wd_gpiod2_request *request = wd_gpiod2_(handle);
    return gpiod_line_request_set_value(request->request, request->offset,
                                        value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
}

/* Reads up to `max` pending edges, oldest first; the count, or -1. Call only when the descriptor is
   readable: the read blocks otherwise. */
static inline int wd_gpio_read_edges(struct wd_gpio_request *handle, struct wd_gpio_edge *edges, unsigned max) {
    struct wd_gpiod2_request *request = wd_gpiod2_(handle);
    if (!request->edges) {
        errno = EINVAL;
        return -1;
    }
    size_t capacity = gpiod_edge_event_buffer_get_capacity(request->edges);
    int count = gpiod_line_request_read_edge_events(request->request, request->edges, max < capacity ? max : capacity);
    for (int i = 0; i < count; i++) {
        struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(request->edges, (unsigned long)i);
        edges[i].rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
        edges[i].timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
    }
    return count;
}
