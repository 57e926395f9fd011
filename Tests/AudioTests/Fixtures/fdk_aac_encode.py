#!/usr/bin/env python3
"""Encodes a sine tone to ADTS with libfdk-aac (through ctypes): AAC-LC, HE-AAC (SBR) or HE-AACv2 (SBR + PS).

Debian's ffmpeg has no HE-AAC encoder; Debian's non-free libfdk-aac2 has one, and scripts/fetch-fdk-aac
unpacks it without installing it. Only the Python standard library is needed.

  fdk_aac_encode.py --lib PATH/libfdk-aac.so.2 --profile he-aac --rate 44100 --channels 2 \
      --kbps 48 --frequency 440 --seconds 5 OUT.aac
"""
import argparse
import ctypes
import math
import os
import struct
import sys

# aacenc_lib.h
AACENC_OK = 0x0000
AACENC_ENCODE_EOF = 0x0080
AACENC_AOT = 0x0100
AACENC_BITRATE = 0x0101
AACENC_SAMPLERATE = 0x0103
AACENC_CHANNELMODE = 0x0106
AACENC_AFTERBURNER = 0x0200
AACENC_TRANSMUX = 0x0300
TT_MP4_ADTS = 2
IN_AUDIO_DATA = 0
OUT_BITSTREAM_DATA = 3
# MPEG-4 audio object types.
PROFILES = {"lc": 2, "he-aac": 5, "he-aacv2": 29}


class BufDesc(ctypes.Structure):
    _fields_ = [("numBufs", ctypes.c_int), ("bufs", ctypes.POINTER(ctypes.c_void_p)),
                ("bufferIdentifiers", ctypes.POINTER(ctypes.c_int)), ("bufSizes", ctypes.POINTER(ctypes.c_int)),
                ("bufElSizes", ctypes.POINTER(ctypes.c_int))]


class InArgs(ctypes.Structure):
    _fields_ = [("numInSamples", ctypes.c_int), ("numAncBytes", ctypes.c_int)]


class OutArgs(ctypes.Structure):
    _fields_ = [("numOutBytes", ctypes.c_int), ("numInSamples", ctypes.c_int), ("numAncBytes", ctypes.c_int),
                ("bitResState", ctypes.c_int)]


class InfoStruct(ctypes.Structure):
    _fields_ = [("maxOutBufBytes", ctypes.c_uint), ("maxAncBytes", ctypes.c_uint), ("inBufFillLevel", ctypes.c_uint),
                ("inputChannels", ctypes.c_uint), ("frameLength", ctypes.c_uint), ("nDelay", ctypes.c_uint),
                ("nDelayCore", ctypes.c_uint), ("confBuf", ctypes.c_ubyte * 64), ("confSize", ctypes.c_uint)]


def check(result, what):
    if result != AACENC_OK:
        sys.exit(f"{what} failed: 0x{result:04x}")


def make_buffer(identifier, data, element_size):
    """An AACENC_BufDesc over one buffer; returns it with the objects it points to (kept alive by the caller)."""
    pointer = ctypes.cast(data, ctypes.c_void_p)
    keep = (ctypes.c_void_p * 1)(pointer), (ctypes.c_int * 1)(identifier), \
        (ctypes.c_int * 1)(ctypes.sizeof(data)), (ctypes.c_int * 1)(element_size)
    desc = BufDesc(1, keep[0], keep[1], keep[2], keep[3])
    return desc, keep


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    parser.add_argument("--profile", choices=sorted(PROFILES), required=True)
    parser.add_argument("--rate", type=int, default=44100)
    parser.add_argument("--channels", type=int, default=2)
    parser.add_argument("--kbps", type=int, default=48)
    parser.add_argument("--frequency", type=float, default=440)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("output")
    args = parser.parse_args()

    fdk = ctypes.CDLL(args.lib)
    handle = ctypes.c_void_p()
    check(fdk.aacEncOpen(ctypes.byref(handle), 0, args.channels), "aacEncOpen")
    for param, value in ((AACENC_AOT, PROFILES[args.profile]), (AACENC_SAMPLERATE, args.rate),
                         (AACENC_CHANNELMODE, args.channels), (AACENC_BITRATE, args.kbps * 1000),
                         (AACENC_TRANSMUX, TT_MP4_ADTS), (AACENC_AFTERBURNER, 1)):
        check(fdk.aacEncoder_SetParam(handle, param, ctypes.c_uint(value)), f"aacEncoder_SetParam(0x{param:04x})")
    check(fdk.aacEncEncode(handle, None, None, None, None), "aacEncEncode (initialisation)")
    info = InfoStruct()
    check(fdk.aacEncInfo(handle, ctypes.byref(info)), "aacEncInfo")

    total = int(args.rate * args.seconds)
    chunk_frames = info.frameLength
    out_data = (ctypes.c_ubyte * max(info.maxOutBufBytes, 8192))()
    out_desc, out_keep = make_buffer(OUT_BITSTREAM_DATA, out_data, 1)
    partial = args.output + f".{os.getpid()}.partial"
    with open(partial, "wb") as out:
        position = 0
        while True:
            frames = min(chunk_frames, total - position)
            in_args = InArgs(frames * args.channels if frames > 0 else -1, 0)
            samples = []
            for index in range(position, position + max(frames, 0)):
                value = int(round(16000 * math.sin(2 * math.pi * args.frequency * index / args.rate)))
                samples.extend([value] * args.channels)
            in_data = (ctypes.c_short * max(len(samples), 1))(*samples)
            in_desc, in_keep = make_buffer(IN_AUDIO_DATA, in_data, 2)
            out_args = OutArgs()
            result = fdk.aacEncEncode(handle, ctypes.byref(in_desc), ctypes.byref(out_desc), ctypes.byref(in_args),
                                      ctypes.byref(out_args))
            if result == AACENC_ENCODE_EOF:
                break
            check(result, "aacEncEncode")
            out.write(bytes(out_data[:out_args.numOutBytes]))
            position += max(frames, 0)
    fdk.aacEncClose(ctypes.byref(handle))
    os.replace(partial, args.output)


if __name__ == "__main__":
    main()
