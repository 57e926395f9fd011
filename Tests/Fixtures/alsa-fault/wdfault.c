/*
 * wdfault: an alsa-lib external I/O plugin (ioplug) for the tests: a playback device that can be
 * unplugged. It takes S16_LE interleaved frames as fast as they come (like `null`) and appends them
 * to `file`; while the file named by `fault` exists it behaves like a USB DAC that was pulled out:
 * opening fails with -ENODEV and every prepare, pointer query and transfer returns -ENODEV.
 *
 * Built by the tests (WavedialTestSupport's AlsaFaultDevice) with
 *   cc -shared -fPIC -o libasound_module_pcm_wdfault.so wdfault.c -lasound
 * and named in a test asoundrc:
 *   pcm_type.wdfault { lib "/path/libasound_module_pcm_wdfault.so" }
 *   pcm.x { type wdfault file "/tmp/capture.raw" fault "/tmp/unplugged" }
 */
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct wdfault {
	snd_pcm_ioplug_t io;
	int out;          /* capture file */
	char *faultPath;  /* present = unplugged */
};

static int unplugged(const struct wdfault *wd) {
	return access(wd->faultPath, F_OK) == 0;
}

static int wd_start(snd_pcm_ioplug_t *io) {
	return unplugged(io->private_data) ? -ENODEV : 0;
}

static int wd_stop(snd_pcm_ioplug_t *io) {
	(void)io;
	return 0;
}

static int wd_prepare(snd_pcm_ioplug_t *io) {
	return unplugged(io->private_data) ? -ENODEV : 0;
}

/* Everything written is consumed at once (the position wraps at the boundary, see the flags below). */
static snd_pcm_sframes_t wd_pointer(snd_pcm_ioplug_t *io) {
	if (unplugged(io->private_data))
		return -ENODEV;
	return io->appl_ptr;
}

static snd_pcm_sframes_t wd_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas,
				     snd_pcm_uframes_t offset, snd_pcm_uframes_t size) {
	struct wdfault *wd = io->private_data;
	if (unplugged(wd))
		return -ENODEV;
	const char *base = (const char *)areas[0].addr + (areas[0].first + offset * areas[0].step) / 8;
	size_t bytes = size * io->channels * 2;
	while (bytes > 0) {
		ssize_t written = write(wd->out, base, bytes);
		if (written < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		base += written;
		bytes -= (size_t)written;
	}
	return size;
}

static int wd_close(snd_pcm_ioplug_t *io) {
	struct wdfault *wd = io->private_data;
	close(wd->out);
	close(io->poll_fd);
	free(wd->faultPath);
	free(wd);
	return 0;
}

static const snd_pcm_ioplug_callback_t callbacks = {
	.start = wd_start,
	.stop = wd_stop,
	.prepare = wd_prepare,
	.pointer = wd_pointer,
	.transfer = wd_transfer,
	.close = wd_close,
};

SND_PCM_PLUGIN_DEFINE_FUNC(wdfault) {
	snd_config_iterator_t i, next;
	const char *file = NULL, *fault = NULL;
	(void)root;
	snd_config_for_each(i, next, conf) {
		snd_config_t *n = snd_config_iterator_entry(i);
		const char *id;
		if (snd_config_get_id(n, &id) < 0)
			continue;
		if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint"))
			continue;
		if (!strcmp(id, "file")) {
			snd_config_get_string(n, &file);
			continue;
		}
		if (!strcmp(id, "fault")) {
			snd_config_get_string(n, &fault);
			continue;
		}
		SNDERR("wdfault: unknown field %s", id);
		return -EINVAL;
	}
	if (!file || !fault || stream != SND_PCM_STREAM_PLAYBACK) {
		SNDERR("wdfault: playback only, needs file and fault");
		return -EINVAL;
	}
	if (access(fault, F_OK) == 0)
		return -ENODEV;

	struct wdfault *wd = calloc(1, sizeof(*wd));
	if (!wd)
		return -ENOMEM;
	wd->faultPath = strdup(fault);
	wd->out = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	/* Always writable: the device never makes the writer wait. */
	int pollFD = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (!wd->faultPath || wd->out < 0 || pollFD < 0) {
		int err = -errno;
		if (wd->out >= 0)
			close(wd->out);
		if (pollFD >= 0)
			close(pollFD);
		free(wd->faultPath);
		free(wd);
		return err ? err : -ENOMEM;
	}
	wd->io.version = SND_PCM_IOPLUG_VERSION;
	wd->io.name = "wavedial unpluggable test device";
	wd->io.callback = &callbacks;
	wd->io.private_data = wd;
	wd->io.poll_fd = pollFD;
	wd->io.poll_events = POLLOUT;
	wd->io.mmap_rw = 0;
	wd->io.flags = SND_PCM_IOPLUG_FLAG_BOUNDARY_WA;

	int err = snd_pcm_ioplug_create(&wd->io, name, stream, mode);
	if (err < 0) {
		close(wd->out);
		close(pollFD);
		free(wd->faultPath);
		free(wd);
		return err;
	}
	static const unsigned int access_list[] = { SND_PCM_ACCESS_RW_INTERLEAVED };
	static const unsigned int format_list[] = { SND_PCM_FORMAT_S16_LE };
	if ((err = snd_pcm_ioplug_set_param_list(&wd->io, SND_PCM_IOPLUG_HW_ACCESS, 1, access_list)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_list(&wd->io, SND_PCM_IOPLUG_HW_FORMAT, 1, format_list)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(&wd->io, SND_PCM_IOPLUG_HW_CHANNELS, 1, 2)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(&wd->io, SND_PCM_IOPLUG_HW_RATE, 8000, 192000)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(&wd->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 64, 1 << 20)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(&wd->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 1024)) < 0) {
		snd_pcm_ioplug_delete(&wd->io);
		return err;
	}
	*pcmp = wd->io.pcm;
	return 0;
}
SND_PCM_PLUGIN_SYMBOL(wdfault);
