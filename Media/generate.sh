#!/usr/bin/env bash
# Rebuilds every committed sample in Media/ from nothing but the ffmpeg CLI, espeak-ng and sox,
# then records what ffprobe says of each sample for the tests (Tests/MediaIOTests/Fixtures/ffprobe/).
# Each recipe below is that file's documentation: what it shows and how it was made.
#
#   Media/generate.sh            rebuild everything
#
# Requires: ffmpeg/ffprobe (Debian 12: 5.1), espeak-ng, sox. `make deps` installs them.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
records="$here/../Tests/MediaIOTests/Fixtures/ffprobe"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$here"

for tool in ffmpeg ffprobe espeak-ng sox soxi; do
    command -v "$tool" >/dev/null || { echo "generate.sh: $tool is missing (run 'make deps')" >&2; exit 1; }
done

# Settings shared by every encode: no encoder version strings or creation dates, so a rebuild with the
# same tools gives the same files.
ff=(ffmpeg -nostdin -hide_banner -loglevel error -y)
exact=(-map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact)
x264=(-c:v libx264 -preset veryfast -pix_fmt yuv420p -x264-params threads=1)

# --- speech.mp4, speech.vtt, speech.srt -------------------------------------------------------
# 12 s: moving test pattern (320x180, 25 fps) and four spoken sentences (espeak-ng, en-us) placed at
# 0.5, 3.5, 6.5 and 9.5 s. Each sentence's leading/trailing silence is trimmed with sox, so its cue
# runs from the placement time to the end of the trimmed speech: the captions match the speech.
sentences=(
    "Welcome to the media accessibility demo."
    "Captions should appear when the words are spoken."
    "Flashing lights can trigger seizures in some viewers."
    "Thank you for watching this short clip."
)
starts=(0.5 3.5 6.5 9.5)
duration=12
sox -D -n -r 22050 -c 1 -b 16 "$work/bed.wav" trim 0 "$duration"
mix=(-v 1 "$work/bed.wav")
vtt="WEBVTT"$'\n'
srt=""
stamp() { # seconds -> HH:MM:SS<sep>mmm
    awk -v t="$1" -v sep="$2" 'BEGIN { ms = int(t * 1000 + 0.5); h = int(ms / 3600000); m = int(ms % 3600000 / 60000);
        s = int(ms % 60000 / 1000); printf "%02d:%02d:%02d%s%03d", h, m, s, sep, ms % 1000 }'
}
for i in "${!sentences[@]}"; do
    espeak-ng -v en-us -s 160 -w "$work/raw$i.wav" "${sentences[$i]}"
    sox -D "$work/raw$i.wav" "$work/say$i.wav" silence 1 0.02 0.5% reverse silence 1 0.02 0.5% reverse
    length=$(soxi -D "$work/say$i.wav")
    sox -D "$work/say$i.wav" "$work/placed$i.wav" pad "${starts[$i]}"
    mix+=(-v 1 "$work/placed$i.wav")
    end=$(awk -v a="${starts[$i]}" -v b="$length" 'BEGIN { printf "%.3f", a + b }')
    vtt+=$'\n'"$(stamp "${starts[$i]}" .) --> $(stamp "$end" .)"$'\n'"${sentences[$i]}"$'\n'
    srt+="$((i + 1))"$'\n'"$(stamp "${starts[$i]}" ,) --> $(stamp "$end" ,)"$'\n'"${sentences[$i]}"$'\n\n'
done
sox -D -m "${mix[@]}" "$work/speech.wav" trim 0 "$duration"
printf '%s' "$vtt" > speech.vtt
printf '%s' "$srt" > speech.srt
"${ff[@]}" -f lavfi -i "testsrc2=size=320x180:rate=25:duration=$duration" -i "$work/speech.wav" \
    "${x264[@]}" -crf 30 -c:a aac -b:a 48k -ar 48000 -ac 1 -metadata:s:a:0 language=eng \
    -movflags +faststart "${exact[@]}" -shortest speech.mp4

# --- flashing.mp4 ----------------------------------------------------------------------------
# 6 s at 30 fps, 320x180, mid grey (Y=128) except frames 60-119 (2.0-4.0 s): full-frame white (Y=235)
# and black (Y=16) alternating every 3 frames (5 flashes a second), plus a 440 Hz tone.
"${ff[@]}" -f lavfi -i "nullsrc=size=320x180:rate=30:duration=6,format=yuv420p,geq=lum='if(between(N,60,119),if(lt(mod(N-60,6),3),235,16),128)':cb=128:cr=128" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=6" \
    "${x264[@]}" -crf 18 -c:a aac -b:a 48k -ac 1 -movflags +faststart "${exact[@]}" flashing.mp4

# --- no-audio.mp4 ----------------------------------------------------------------------------
# 4 s of moving test pattern (320x180, 25 fps), video stream only.
"${ff[@]}" -f lavfi -i "testsrc2=size=320x180:rate=25:duration=4" "${x264[@]}" -crf 30 \
    -movflags +faststart "${exact[@]}" no-audio.mp4

# --- audio-only.ogg --------------------------------------------------------------------------
# 5 s of Opus audio, no video: 1 s of silence, 3 s of a 440 Hz tone at -12 dBFS peak, 1 s of silence.
sox -D -n -r 48000 -c 1 -b 16 "$work/tone.wav" synth 3 sine 440 vol -12dB pad 1 1
"${ff[@]}" -i "$work/tone.wav" -c:a libopus -b:a 48k "${exact[@]}" audio-only.ogg

# --- audio-with-cover.m4a --------------------------------------------------------------------
# 2 s of a 330 Hz tone (AAC) with cover art: a JPEG "video" stream marked attached_pic. It is a picture,
# not video: MediaIO's video readers do not pick it.
"${ff[@]}" -f lavfi -i "sine=frequency=330:sample_rate=48000:duration=2" -f lavfi -i "color=c=orange:size=64x64:duration=1" \
    -map 0 -map 1 -frames:v 1 -c:a aac -b:a 32k -c:v mjpeg -disposition:v:0 attached_pic "${exact[@]}" audio-with-cover.m4a

# --- embedded-subtitles.mkv ------------------------------------------------------------------
# speech.mp4's video and audio in Matroska with the same captions as three embedded text tracks:
# #2 SubRip (eng, default + hearing_impaired), #3 ASS (eng, "Styled"), #4 WebVTT (eng, "WebVTT").
# Matroska has no per-stream duration field, so this sample shows durations measured from packets.
# Matroska cannot store the negative start of MP4's AAC priming, so the muxer moves every stream
# 21 ms later: the cues start at 0.521, 3.521 … and stay in sync with the speech.
"${ff[@]}" -i speech.mp4 -i speech.srt -i speech.srt -i speech.vtt \
    -map 0:v -map 0:a -map 1 -map 2 -map 3 -c:v copy -c:a copy -c:s:0 srt -c:s:1 ass -c:s:2 webvtt \
    -metadata:s:s:0 language=eng -metadata:s:s:0 title="English (SDH)" \
    -metadata:s:s:1 language=eng -metadata:s:s:1 title="Styled" \
    -metadata:s:s:2 language=eng -metadata:s:s:2 title="WebVTT" \
    -disposition:s:0 default+hearing_impaired -disposition:s:1 0 -disposition:s:2 0 \
    "${exact[@]}" embedded-subtitles.mkv

# --- gray-ramp-10bit.mkv ---------------------------------------------------------------------
# 5 frames (5 fps), 64x48, 10-bit 4:2:0 (yuv420p10le), lossless FFV1: frame N has luma 64 + 200*N
# everywhere (64, 264, 464, 664, 864) and neutral chroma (512). Exact sample values for plane tests.
"${ff[@]}" -f lavfi -i "nullsrc=size=64x48:rate=5:duration=1,format=yuv420p10le,geq=lum='64+200*N':cb=512:cr=512" \
    -c:v ffv1 "${exact[@]}" gray-ramp-10bit.mkv

# --- rgb-primaries.mkv -----------------------------------------------------------------------
# 3 frames (1 fps), 64x48, RGB (PNG codec, rgb24): pure red, green, blue. A frame that is not planar
# YUV, so MediaIO converts it (BT.709, full range).
"${ff[@]}" -f lavfi -i "nullsrc=size=64x48:rate=1:duration=3,format=rgb24,geq=r='255*eq(N,0)':g='255*eq(N,1)':b='255*eq(N,2)'" \
    -c:v png "${exact[@]}" rgb-primaries.mkv

# --- unknown-codec.avi -----------------------------------------------------------------------
# 1 s of video in AVI whose codec tag is 'ZZZZ', which no FFmpeg decoder knows: probing works,
# decoding must fail with "decoder missing".
"${ff[@]}" -f lavfi -i "testsrc2=size=64x48:rate=5:duration=1" -c:v mpeg4 -vtag ZZZZ -strict experimental "${exact[@]}" unknown-codec.avi

# --- truncated.mp4 ---------------------------------------------------------------------------
# speech.mp4 cut after 55% of its bytes: the header (moov, at the front) is whole, the media data ends early.
size=$(stat -c %s speech.mp4)
head -c $((size * 55 / 100)) speech.mp4 > truncated.mp4

# --- corrupt-header.mp4 ----------------------------------------------------------------------
# speech.mp4 with its 'moov' box renamed 'xxxx': an MP4 (ftyp is fine) whose index is unreadable.
offset=$(grep -obUaP 'moov' speech.mp4 | head -1 | cut -d: -f1)
cp speech.mp4 corrupt-header.mp4
printf 'xxxx' | dd of=corrupt-header.mp4 bs=1 seek="$offset" conv=notrunc status=none

# --- empty.mp4, not-media.mp4 ----------------------------------------------------------------
# A zero-byte file, and a text file with a video file's name.
: > empty.mp4
printf 'This is a text file, not a video.\n' > not-media.mp4

# --- what ffprobe says, recorded for the tests -----------------------------------------------
# For each readable sample: ffprobe's format, streams, packet and frame counts, and the video frames'
# presentation times. MediaIO's probe and decoders must agree with these.
rm -rf "$records" && mkdir -p "$records"
for media in speech.mp4 flashing.mp4 no-audio.mp4 audio-only.ogg audio-with-cover.m4a embedded-subtitles.mkv \
    gray-ramp-10bit.mkv rgb-primaries.mkv unknown-codec.avi; do
    ffprobe -v error -show_format -show_streams -count_frames -count_packets -of json "$media" \
        > "$records/$media.json"
    frames=$(ffprobe -v error -select_streams v:0 -show_entries frame=best_effort_timestamp_time -of csv=p=0 "$media" \
        | cut -d, -f1 | grep -v '^$' || true)
    if [ -n "$frames" ]; then printf '%s\n' "$frames" > "$records/$media.frames.txt"; fi
done
echo "generate.sh: rebuilt the samples in Media/ and the ffprobe records in Tests/MediaIOTests/Fixtures/ffprobe/"
