import Foundation

/// HLS packages built by the ffmpeg CLI for tests, the way a publisher's pipeline makes them: `master.m3u8`, a variant
/// `stream_K.m3u8` (video re-encoded with a key frame a second, AAC audio, MPEG-TS segments `stream_K_NN.ts`) for each
/// subtitle file, and that file as the variant's WebVTT subtitle rendition `sub_K.m3u8` in group `subs` (with its
/// language when given). Without subtitle files, one variant and no subtitles.
package enum HLSTestPackage {
    /// Builds the package of `media` in `folder` (made if missing). `muxDelay`: the MPEG-TS muxer's delay (nil:
    /// FFmpeg's default, 1.4 s); `timestampOffset` moves every timestamp, cue times too, that far along the MPEG-2 clock;
    /// `fragmentedMP4`: media segments `stream_K_NN.m4s` after an initialisation section `init.mp4` (`#EXT-X-MAP`)
    /// instead of MPEG-TS — one variant only (FFmpeg 5.1 gives every variant that one name); `singleFile`: each
    /// rendition one file `stream_K.ts` / `stream_K.vtt`, its segments byte ranges of it (`#EXT-X-BYTERANGE`).
    /// The package is made once per machine (TestMediaCache, by its inputs' bytes and these settings) and copied here.
    package static func build(
        in folder: URL, media: String = "Media/speech.mp4", subtitles: [(file: String, language: String?)], segmentSeconds: Int = 4,
        muxDelay: Double? = 0, timestampOffset: Double? = nil, fragmentedMP4: Bool = false, singleFile: Bool = false
    ) throws {
        precondition(!fragmentedMP4 || subtitles.count <= 1, "FFmpeg 5.1 names every variant's initialisation section alike")
        let resolve = { (path: String) in path.hasPrefix("/") ? path : TestMediaCache.packageRoot.appendingPathComponent(path).path }
        let media = resolve(media)
        let subtitles = subtitles.map { (file: resolve($0.file), language: $0.language) }
        let inputs = try ([media] + subtitles.map(\.file)).map(TestMediaCache.fingerprint(ofFile:))
        let recipe = """
            HLS package v1 of \(inputs) languages \(subtitles.map { $0.language ?? "-" }) segments \(segmentSeconds) s \
            mux delay \(muxDelay.map { "\($0)" } ?? "default") offset \(timestampOffset.map { "\($0)" } ?? "none") \
            fmp4 \(fragmentedMP4) single file \(singleFile)
            """
        let package = try TestMediaCache.folder("hls-package", recipe: recipe, tools: ["ffmpeg"]) { made in
            try ffmpeg(
                into: made, media: media, subtitles: subtitles, segmentSeconds: segmentSeconds, muxDelay: muxDelay,
                timestampOffset: timestampOffset, fragmentedMP4: fragmentedMP4, singleFile: singleFile)
        }
        try TestMediaCache.copyContents(of: package, into: folder)
    }

    /// The ffmpeg CLI's HLS muxer writing the package into `folder`.
    private static func ffmpeg(
        into folder: URL, media: String, subtitles: [(file: String, language: String?)], segmentSeconds: Int, muxDelay: Double?,
        timestampOffset: Double?, fragmentedMP4: Bool, singleFile: Bool
    ) throws {
        var arguments = ["-nostdin", "-v", "error", "-y", "-i", media]
        for subtitle in subtitles { arguments += ["-i", subtitle.file] }
        var variants = ["v:0,a:0"]
        if !subtitles.isEmpty {
            for k in subtitles.indices { arguments += ["-map", "0:v", "-map", "0:a", "-map", String(k + 1)] }
            variants = subtitles.enumerated().map { k, subtitle in "v:\(k),a:\(k),s:\(k),sgroup:subs" + (subtitle.language.map { ",language:\($0)" } ?? "") }
        }
        arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-c:a", "aac"]
        if !subtitles.isEmpty { arguments += ["-c:s", "webvtt", "-hls_subtitle_path", folder.appendingPathComponent("sub_%v.m3u8").path] }
        if let muxDelay { arguments += ["-muxdelay", String(muxDelay)] }
        if let timestampOffset { arguments += ["-output_ts_offset", String(timestampOffset)] }
        if fragmentedMP4 { arguments += ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"] }
        if singleFile { arguments += ["-hls_flags", "single_file"] }
        let segmentName = (singleFile ? "stream_%v." : "stream_%v_%02d.") + (fragmentedMP4 ? "m4s" : "ts")
        arguments += [
            "-f", "hls", "-hls_time", String(segmentSeconds), "-hls_playlist_type", "vod",
            "-hls_segment_filename", folder.appendingPathComponent(segmentName).path, "-master_pl_name", "master.m3u8",
            "-var_stream_map", variants.joined(separator: " "), folder.appendingPathComponent("stream_%v.m3u8").path,
        ]
        try ExternalTool.run("ffmpeg", arguments)
    }
}
