# MediaLint — every task a developer or CI runs. On a fresh Debian/Ubuntu machine with the Swift toolchain, `make demo`
# and `make test` install what is missing and then build and run: `make demo` (and `make release`) only what the build
# needs (FFmpeg's libraries, PocketSphinx, espeak-ng, SQLite); `make test` the tests' tools too (FFmpeg's CLI, sox,
# festival, Chromium for the test that opens the HTML report headless, Python for the second opinions).

SWIFT        ?= swift
PREFIX       ?= /usr/local
RELEASE_DIR  := .build/release
DEBUG_BIN    := .build/debug/medialint
RELEASE_BIN  := $(RELEASE_DIR)/medialint

# Debian packages. BUILD_PACKAGES build medialint and what it needs to run (FFmpeg's libraries, PocketSphinx and its US
# English model, which align caption words to speech, espeak-ng, which pronounces the words its dictionary lacks,
# SQLite): a release build installs only these. TEST_PACKAGES are
# for the tests, `make bench` and Media/generate.sh: FFmpeg's CLI and sox (espeak-ng's voices, from BUILD_PACKAGES); festival, its voices and the
# recorded game music (asc-music, hyperrogue-music, singularity-music) make the test programmes of the sync tests
# (TestSupport/Programmes*.swift), and recorded people — a telephone voice's prompts with their words
# (asterisk-core-sounds-en, -en-wav), a LibriVox reader (pocketsphinx-testdata) — with recorded effects
# (sound-theme-freedesktop) make the programme of real voices (TestSupport/Programmes+Recorded.swift); recorded video nobody here made — music visualisations (lebiniou-data) and a game's
# cut-scenes (planetblupi-common) — is what the flash verdicts are re-encoded from (ChecksTests/FlashMetamorphicTests);
# Chromium opens the HTML report headless; python3-venv holds the caption readers the tests take as second opinions
# (OPINIONS, from PyPI).
BUILD_PACKAGES := libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libswscale-dev \
                  libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us pkg-config libsqlite3-dev espeak-ng
TEST_PACKAGES  := ffmpeg sox time chromium festival festvox-us-slt-hts festvox-kallpc16k festvox-kdlpc16k \
                  asc-music hyperrogue-music singularity-music lebiniou-data planetblupi-common strace python3-venv \
                  asterisk-core-sounds-en asterisk-core-sounds-en-wav pocketsphinx-testdata sound-theme-freedesktop

# A one-node Slurm cluster for the scale-out test (Tests/MedialintCLITests/SlurmClusterTests.swift, `make test-slurm`).
SLURM_PACKAGES := slurmctld slurmd slurm-client munge

# Other projects' caption readers, the tests' second opinions (Tests/CaptionsTests/SecondOpinionTests.swift): ttconv
# (EBU STL, TTML, SCC) and pysubs2 (SAMI, ASS), pinned, in a virtual environment of their own.
OPINIONS     := .build/opinions
OPINION_PACKAGES := ttconv==1.2.3 pysubs2==1.8.1

FUZZ_SECONDS ?= 600
FUZZ_MEDIA_VARIANTS ?= 300
FUZZ_DIR     := .build-fuzz

.PHONY: all deps test-deps test-slurm opinions build release test test-fast demo bench fuzz fuzz-media media install man clean clean-test-media help format format-check

all: build

help:
	@echo "make demo     install what is missing, build, run medialint on the bundled samples"
	@echo "make test     install what is missing, build, run every test"
	@echo "make test-slurm  the scale-out example on a one-node Slurm cluster (installs Slurm as root)"
	@echo "make test-fast  the tests that need no generated media and are not slow (tags .media, .slow): after every change"
	@echo "make bench    release build; speed against reference tools measured in the same run"
	@echo "make build    debug build            make release   release build of medialint"
	@echo "make fuzz     fuzz each caption reader (FUZZ_READERS) with libFuzzer for FUZZ_SECONDS=$(FUZZ_SECONDS)"
	@echo "make fuzz-media  FUZZ_MEDIA_VARIANTS=$(FUZZ_MEDIA_VARIANTS) damaged media files through probe, flash, sync and check"
	@echo "make format   format the Swift sources with swift format (.swift-format); make format-check only checks"
	@echo "make media    rebuild Media/ samples (Media/generate.sh) and the ffprobe records"
	@echo "make install  install medialint, its man page and shell completions under \$$PREFIX (PREFIX=$(PREFIX), DESTDIR for staging)"
	@echo "make man      the man page, generated from the command definitions"
	@echo "make deps     install the Debian packages the build needs (as root, or with sudo); make test-deps: the tests' too"
	@echo "make clean    remove build products and generated benchmark media"
	@echo "make clean-test-media  remove the generated test media kept for this machine ($(TEST_MEDIA))"

# Installs only the packages of $(1) that are missing, as root or through sudo.
define install_missing
	@missing=""; \
	for package in $(1); do \
	    dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if ! command -v apt-get >/dev/null 2>&1; then \
	    echo "make $@: missing:$$missing — install them with your system's package manager (this Makefile knows apt-get)" >&2; exit 1; \
	fi; \
	if [ "$$(id -u)" -eq 0 ]; then sudo=""; \
	elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; \
	else echo "make $@: missing:$$missing — run as root or install sudo" >&2; exit 1; fi; \
	echo "make $@: installing$$missing"; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null && \
	echo "make $@: done"
endef

# What building and running medialint needs.
deps:
	$(call install_missing,$(BUILD_PACKAGES))

# What the tests, the benchmarks and the sample generator need too.
test-deps: deps
	$(call install_missing,$(TEST_PACKAGES))

build: deps
	$(SWIFT) build

# A release build of product $(1). The Swift runtime and Foundation linked in: the program starts ~40 ms sooner and
# holds ~6 MB less. The linker's warning about mktemp in Foundation's own static library (glibc's link-time note; not
# this project's code) is left out.
define release_build
	@echo "$(SWIFT) build -c release --static-swift-stdlib --product $(1)"
	@bash -o pipefail -c '$(SWIFT) build -c release --static-swift-stdlib --product $(1) 2>&1 | { grep -v "the use of .mktemp. is dangerous" || true; }'
endef

# medialint alone: what `make demo` and `make install` run (the benchmarks and fuzzers are built by their targets).
release: deps
	$(call release_build,medialint)

# Every test. Media the tests generate (ffmpeg clips, espeak-ng and festival speech, HLS packages) is made once per
# machine and kept by recipe in TEST_MEDIA (TestSupport/TestMediaCache.swift); a first run on a machine makes it.
TEST_MEDIA   ?= $(or $(MEDIALINT_TEST_MEDIA),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/medialint/test-media)

$(OPINIONS)/installed: Makefile
	@rm -rf $(OPINIONS) && /usr/bin/python3 -m venv $(OPINIONS) && \
	    $(OPINIONS)/bin/python -m pip install -q --disable-pip-version-check $(OPINION_PACKAGES) && touch $@

opinions: test-deps $(OPINIONS)/installed

test: test-deps opinions
	$(SWIFT) build --build-tests
	$(SWIFT) test

# What to run after every change: every test but those tagged .media (they need generated media) or .slow — each says
# it was skipped. make test (and CI) runs them all.
test-fast: test-deps opinions
	$(SWIFT) build --build-tests
	MEDIALINT_TEST_FAST=1 $(SWIFT) test

# The scale-out example on a real engine: Slurm's daemons installed (as root, as CI runs), then the test that starts a
# one-node cluster in a folder of its own, runs Examples/scale-out/parallel-and-slurm.sh as an array job, kills and
# resubmits a task, and compares the merged report with a one-machine check. Where Slurm cannot be installed (no root,
# no apt-get), the install's failure is ignored and the test says why it skips.
test-slurm: test-deps
	-$(call install_missing,$(SLURM_PACKAGES))
	$(SWIFT) build --build-tests
	$(SWIFT) test --filter 'SlurmClusterTests|ScaleOutExampleTests'

# The layout of every Swift file, by the toolchain's swift format and the repository's .swift-format.
FORMAT_PATHS := Package.swift Sources Tests Examples

format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)

format-check:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)

# The main job on the bundled samples: what each file holds, its captions, and how bad files are refused.
demo: release
	@echo
	@for file in Media/speech.mp4 Media/embedded-subtitles.mkv Media/audio-only.ogg Media/rgb-primaries.mkv; do \
	    $(RELEASE_BIN) probe $$file || exit 1; echo; \
	done
	@echo "JSON for scripts and CI (medialint probe --format json):"
	@$(RELEASE_BIN) probe Media/no-audio.mp4 --format json | head -n 12; echo "  …"; echo
	@echo "Bad input: one line saying why, exit status 2:"
	@for file in Media/truncated.mp4 Media/corrupt-header.mp4 Media/empty.mp4 Media/not-media.mp4 Media/missing.mp4; do \
	    $(RELEASE_BIN) probe $$file; echo "  → exit status $$?"; \
	done
	@echo; echo "Seizure-risk flashing (medialint flash): a clip that flashes 5 times a second, and one that does not:"
	@$(RELEASE_BIN) flash Media/flashing.mp4 Media/speech.mp4; echo "  → exit status $$? (1: flashing found)"
	@echo; echo "The captions of Media/speech.mp4 (medialint cues Media/speech.vtt):"
	@$(RELEASE_BIN) cues Media/speech.vtt
	@echo; echo "0.8 s earlier, then to WebVTT (medialint shift Media/speech.srt --by=-0.8 -o shifted.srt; medialint convert shifted.srt - --to vtt):"
	@$(RELEASE_BIN) shift Media/speech.srt --by=-0.8 -o .build/demo-shifted.srt 2>&1 | sed 's/^/  /'
	@$(RELEASE_BIN) convert .build/demo-shifted.srt - --to vtt | head -n 8
	@echo; echo "Caption timing against the speech (medialint sync): the sidecars and embedded tracks as they are,"
	@$(RELEASE_BIN) sync Media/embedded-subtitles.mkv; echo "  → exit status $$?"
	@echo "the 0.8 s early copy, then its fix (medialint sync Media/speech.mp4 shifted.srt --fix fixed.srt):"
	@$(RELEASE_BIN) sync Media/speech.mp4 .build/demo-shifted.srt; echo "  → exit status $$? (1: out of sync)"
	@$(RELEASE_BIN) sync Media/speech.mp4 .build/demo-shifted.srt --fix .build/demo-fixed.srt > /dev/null; \
	    $(RELEASE_BIN) sync Media/speech.mp4 .build/demo-fixed.srt; echo "  → exit status $$?"
	@echo; echo "Caption quality (medialint lint Media/speech.srt, Netflix rules by default):"
	@$(RELEASE_BIN) lint Media/speech.srt; echo "  → exit status $$? (warnings only)"
	@echo; echo "A transcript with timestamps (medialint transcript Media/speech.vtt --timestamps --pause 0.5):"
	@$(RELEASE_BIN) transcript Media/speech.vtt --timestamps --pause 0.5
	@echo; echo "Autoplaying sound: a page with four autoplaying elements (medialint autoplay .build/demo-site):"
	@mkdir -p .build/demo-site/media && cp Media/speech.mp4 Media/no-audio.mp4 .build/demo-site/media/
	@printf '%s\n' '<video autoplay src="media/speech.mp4"></video>' '<video autoplay muted src="media/speech.mp4"></video>' \
	    '<AUDIO AUTOPLAY SRC=media/speech.mp4#t=0,2.5></AUDIO>' '<video autoplay src="media/no-audio.mp4"></video>' > .build/demo-site/index.html
	@$(RELEASE_BIN) autoplay .build/demo-site; echo "  → exit status $$? (1: a page fails)"
	@echo "and when a media file makes sound (medialint autoplay --media Media/speech.mp4):"
	@$(RELEASE_BIN) autoplay --media Media/speech.mp4
	@echo; echo "The whole library of samples at once (medialint check Media --db .build/demo-results.sqlite):"
	@rm -f .build/demo-results.sqlite*; $(RELEASE_BIN) check Media --db .build/demo-results.sqlite; echo "  → exit status $$?"
	@echo; echo "Again: unchanged files come from the results store, nothing is decoded:"
	@$(RELEASE_BIN) check Media --db .build/demo-results.sqlite > /dev/null; echo "  → exit status $$?"
	@echo; echo "The stored results as JSON Lines (medialint report --db .build/demo-results.sqlite --format jsonl | head -n 3):"
	@$(RELEASE_BIN) report --db .build/demo-results.sqlite --format jsonl | head -n 3 | cut -c1-160
	@echo; echo "The HTML report with charts (medialint report --db .build/demo-results.sqlite --format html -o .build/medialint-report.html):"
	@$(RELEASE_BIN) report --db .build/demo-results.sqlite --format html -o .build/medialint-report.html; \
	    echo "  → exit status $$? · open $(CURDIR)/.build/medialint-report.html in a browser"

bench: test-deps release
	$(call release_build,MediaLintBench)
	$(RELEASE_DIR)/MediaLintBench

# libFuzzer on the caption readers and writers (Sources/CaptionsFuzzer), FUZZ_SECONDS for each reader of
# FUZZ_READERS, seeded with the test fixtures and generated shapes (deep nesting, long lines, many cues, CR-only
# line endings; scaled to max_len: the 100 MB line and the million nested tags are in the tests and `make bench`)
# and guided by a dictionary of the formats' tokens. (The TTML reader runs without leak detection: Foundation's XML
# parser leaks a small string for each XML error it reports — FoundationXML's, not ours.) Crashes are written to $(FUZZ_DIR)/artifacts/;
# replay one with `swift run CaptionsFuzzer FILE`.
FUZZ_READERS ?= webvtt srt ttml scc sami ass sbv stl
FUZZ_SEEDS   := $(FUZZ_DIR)/seeds
fuzz:
	$(SWIFT) build -c release --scratch-path $(FUZZ_DIR) --product CaptionsFuzzer \
	    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
	@mkdir -p $(FUZZ_SEEDS) $(FUZZ_DIR)/artifacts
	@cp -n Tests/CaptionsTests/Fixtures/captions-corpus/*.*t Tests/CaptionsTests/Fixtures/srt-in-the-wild/*.srt Tests/CaptionsTests/Fixtures/formats/* \
	    Tests/CaptionsTests/Fixtures/fuzz-regressions/* Media/*.vtt Media/*.srt $(FUZZ_SEEDS)/ 2>/dev/null || true
	@for f in Tests/CaptionsTests/Fixtures/webvtt-wpt/file-parsing/*/input.vtt; do \
	    cp -n "$$f" "$(FUZZ_SEEDS)/wpt-$$(basename $$(dirname $$f)).vtt"; done
	@awk 'BEGIN { printf "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n"; for (i = 0; i < 5000; i++) printf "<b>"; \
	    printf "deep"; for (i = 0; i < 5000; i++) printf "</b>"; print "" }' > $(FUZZ_SEEDS)/deep-nesting.vtt
	@awk 'BEGIN { printf "1\n00:00:01,000 --> 00:00:02,000\n"; for (i = 0; i < 5000; i++) printf "<i>"; \
	    printf "deep"; for (i = 0; i < 5000; i++) printf "</i>"; print "" }' > $(FUZZ_SEEDS)/deep-nesting.srt
	@awk 'BEGIN { printf "1\n00:00:01,000 --> 00:00:02,000\n"; for (i = 0; i < 16000; i++) printf "<b>a</b>"; print "" }' \
	    > $(FUZZ_SEEDS)/long-line.srt
	@awk 'BEGIN { printf "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n"; for (i = 0; i < 16000; i++) printf "<b>a</b>"; print "" }' \
	    > $(FUZZ_SEEDS)/long-line.vtt
	@awk 'BEGIN { for (i = 1; i <= 2000; i++) printf "%d\n00:%02d:%02d,000 --> 00:%02d:%02d,500\ncue %d <i>in</i>\n\n", \
	    i, int(i / 60) % 60, i % 60, int(i / 60) % 60, i % 60, i }' > $(FUZZ_SEEDS)/many-cues.srt
	@awk 'BEGIN { print "WEBVTT\n"; for (i = 1; i <= 2000; i++) printf "%d\n00:%02d:%02d.000 --> 00:%02d:%02d.500\ncue %d <v A>in</v>\n\n", \
	    i, int(i / 60) % 60, i % 60, int(i / 60) % 60, i % 60, i }' > $(FUZZ_SEEDS)/many-cues.vtt
	@awk 'BEGIN { ORS = "\r"; for (i = 1; i <= 1000; i++) { print i; printf "00:00:%02d,000 --> 00:00:%02d,500\r", i % 60, i % 60; \
	    print "old mac"; print "" } }' > $(FUZZ_SEEDS)/cr-only.srt
	@awk 'BEGIN { print "<?xml version=\"1.0\"?>\n<tt xmlns=\"http://www.w3.org/ns/ttml\" xmlns:tts=\"http://www.w3.org/ns/ttml#styling\" ttp:frameRate=\"25\" xmlns:ttp=\"http://www.w3.org/ns/ttml#parameter\"><head><layout><region xml:id=\"r\" tts:origin=\"10% 70%\" tts:extent=\"80% 20%\"/></layout></head><body><div timeContainer=\"seq\">"; \
	    for (i = 1; i <= 200; i++) printf "<p dur=\"%df\" region=\"r\">cue %d <span tts:fontStyle=\"italic\" begin=\"00:00:00:05\">in</span><br/>two</p>\n", i % 50 + 1, i; print "</div></body></tt>" }' \
	    > $(FUZZ_SEEDS)/seq.ttml
	@printf 'Scenarist_SCC V1.0\n\n00:00:00;00\t9420 9420 94ae 94ae 9452 9452 97a2 97a2 c845 4c4c 4f2c 2057 4f52 4cc4 942f 942f\n\n00:00:03;00\t942c 942c\n\n00:00:04;00\t9425 9425 94ad 94ad 9470 9470 d2cf 4c4c 2d55 d080\n' \
	    > $(FUZZ_SEEDS)/roll-up.scc
	@for reader in $(FUZZ_READERS); do \
	    echo "make fuzz: the $$reader reader for $(FUZZ_SECONDS) s"; mkdir -p $(FUZZ_DIR)/corpus-$$reader; \
	    leaks=1; [ $$reader = ttml ] && leaks=0; \
	    ASAN_OPTIONS=detect_leaks=$$leaks FUZZ_READER=$$reader $(FUZZ_DIR)/release/CaptionsFuzzer $(FUZZ_DIR)/corpus-$$reader $(FUZZ_SEEDS) \
	        -dict=Tests/CaptionsTests/Fixtures/fuzz/captions.dict -max_total_time=$(FUZZ_SECONDS) -max_len=262144 \
	        -artifact_prefix=$(FUZZ_DIR)/artifacts/ -print_final_stats=1 -detect_leaks=$$leaks || exit 1; \
	done

# Damaged media through every command that reads it (Sources/MediaMutationSweep): MP4, Matroska, WebM, Ogg and
# MPEG-TS seeds with bytes flipped, cut short, ranges zeroed, boxes shuffled, sizes broken, ranges duplicated;
# fails on any crash, hang, exit status other than 0/1/2, peak memory over 1 GiB or modified input.
fuzz-media: release
	$(call release_build,MediaMutationSweep)
	$(RELEASE_DIR)/MediaMutationSweep --variants $(FUZZ_MEDIA_VARIANTS) --medialint $(RELEASE_BIN)

media: test-deps
	Media/generate.sh

# The manual page, generated from the command definitions by swift-argument-parser's generate-manual plugin (it builds
# the package in release mode itself, so `install` links the static release build after it), with the sections it
# cannot make — the exit status table, environment, files, examples (docs/man/sections.mdoc) — in place of its
# one-line EXIT STATUS.
GENERATED_MAN := .build/plugins/GenerateManual/outputs/medialint/medialint.1
MAN_PAGE     := .build/medialint.1

man: deps
	$(SWIFT) package generate-manual --authors "the MediaLint authors"
	@awk -v sections=docs/man/sections.mdoc '/^\.Sh "EXIT STATUS"/ { while ((getline line < sections) > 0) print line; skip = 1; next } \
	    /^\.Sh / { skip = 0 } !skip' $(GENERATED_MAN) > $(MAN_PAGE).tmp && mv $(MAN_PAGE).tmp $(MAN_PAGE)
	@grep -q '^\.Sh ENVIRONMENT' $(MAN_PAGE) && echo "man page: $(MAN_PAGE)"

# The binary, its manual page and shell completions (bash, zsh, fish: file paths, profile names, formats).
install: man
	$(MAKE) release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	    $(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/medialint
	install -m 644 $(MAN_PAGE) $(DESTDIR)$(PREFIX)/share/man/man1/medialint.1
	$(RELEASE_BIN) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/medialint
	$(RELEASE_BIN) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_medialint
	$(RELEASE_BIN) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/medialint.fish

clean:
	rm -rf .build $(FUZZ_DIR)

clean-test-media:
	rm -rf "$(TEST_MEDIA)"
