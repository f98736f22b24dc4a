import CFFmpeg

/// Reads what a media file holds: container, duration, streams and their properties.
public enum MediaProbe {
    /// When to read every packet of the file to measure what the container does not state.
    public enum PacketScan: String, Sendable, CaseIterable {
        /// Never: report only what the header says (fast, some durations and frame counts may be missing).
        case never
        /// When some stream has no stated duration or frame count (Matroska, Ogg …). The default.
        case whenNeeded = "auto"
        /// Always: measure every stream's duration and frame count from its packets.
        case always
    }

    /// Probes the file at `path`.
    ///
    /// Durations and frame counts come from the container when it states them, else from the packets.
    /// A file whose sample index points past its end, or whose packets cannot all be read during a scan,
    /// is reported as truncated (`MediaError.Kind.corrupt`).
    /// `closedCaptions`: also look for CEA-608 data in the first second of each video stream (it decodes that second).
    /// Files in `continuation` are read as one with `path`, after it (an HLS rendition's initialisation section and
    /// its segments).
    public static func probe(
        _ path: String, followedBy continuation: [String] = [], scan: PacketScan = .whenNeeded, closedCaptions: Bool = false
    ) throws(MediaError) -> MediaInfo {
        let input = try InputContainer(path: path, followedBy: continuation)
        let format = input.context.pointee
        var streams = input.streams.map { describe($0) }

        let needsScan = streams.contains { $0.duration == nil || $0.frameCount == nil }
        if scan == .always || (scan == .whenNeeded && needsScan) {
            let measured = try measurePackets(of: input)
            try checkPacketsReachTheEnd(measured, of: input)
            for i in streams.indices {
                guard let stats = measured[streams[i].index] else { continue }
                if scan == .always || streams[i].duration == nil, let duration = stats.duration {
                    streams[i].duration = duration
                    streams[i].durationSource = .packets
                }
                if scan == .always || streams[i].frameCount == nil {
                    streams[i].frameCount = stats.count
                    streams[i].frameCountSource = .packets
                }
            }
        }

        // 608 captions in the video's own frames (A/53 data): looked for in the first second of each H.264, HEVC or
        // MPEG-2 video stream (broadcast video sends a pair with every frame, padding when no caption changes).
        if closedCaptions {
            for i in streams.indices where streams[i].video != nil && !streams[i].dispositions.contains("attached_pic") {
                let index = streams[i].index
                streams[i].video?.closedCaptions = ClosedCaptionReader.videoCarriesCaptions(path: path, followedBy: continuation, streamIndex: index)
            }
        }

        let nopts = mlav_nopts_value()
        let timeBase = Double(mlav_time_base())
        return MediaInfo(
            file: path,
            format: cString(format.iformat.pointee.name) ?? "unknown",
            formatLongName: cString(format.iformat.pointee.long_name),
            duration: format.duration == nopts ? nil : Double(format.duration) / timeBase,
            startTime: format.start_time == nopts ? nil : Double(format.start_time) / timeBase,
            bitRate: format.bit_rate > 0 ? Int(format.bit_rate) : nil,
            size: input.size,
            streams: streams
        )
    }

    // MARK: - Streams

    /// What the header says of one stream.
    static func describe(_ stream: UnsafeMutablePointer<AVStream>) -> StreamInfo {
        let st = stream.pointee
        let parameters = st.codecpar.pointee
        let nopts = mlav_nopts_value()
        let descriptor = avcodec_descriptor_get(parameters.codec_id)
        let kind = StreamKind(parameters.codec_type)
        var info = StreamInfo(
            index: Int(st.index),
            kind: kind,
            codec: codecName(parameters.codec_id),
            codecLongName: cString(descriptor?.pointee.long_name),
            codecTag: codecTag(parameters),
            profile: cString(avcodec_profile_name(parameters.codec_id, parameters.profile)),
            language: tag("language", in: st.metadata),
            title: tag("title", in: st.metadata),
            dispositions: dispositionNames(st.disposition),
            duration: st.duration == nopts ? nil : seconds(st.duration, st.time_base),
            durationSource: st.duration == nopts ? nil : .container,
            startTime: st.start_time == nopts ? nil : seconds(st.start_time, st.time_base),
            frameCount: st.nb_frames > 0 ? Int(st.nb_frames) : nil,
            frameCountSource: st.nb_frames > 0 ? .container : nil,
            bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil,
            timeBase: "\(st.time_base.num)/\(st.time_base.den)"
        )
        switch kind {
        case .video: info.video = videoInfo(stream)
        case .audio: info.audio = audioInfo(parameters)
        case .subtitle:
            let properties = descriptor?.pointee.props ?? 0
            info.subtitle = SubtitleStreamInfo(isText: properties & AV_CODEC_PROP_TEXT_SUB != 0)
        default: break
        }
        return info
    }

    private static func videoInfo(_ stream: UnsafeMutablePointer<AVStream>) -> VideoStreamInfo {
        let st = stream.pointee
        let parameters = st.codecpar.pointee
        let pixelFormat = AVPixelFormat(parameters.format)
        let descriptor = av_pix_fmt_desc_get(pixelFormat)
        func valid(_ rate: AVRational) -> Bool { rate.num > 0 && rate.den > 0 }
        let isCoverArt = st.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
        // The average rate; else the container's base rate, except for cover art (one picture, no rate).
        let fps =
            valid(st.avg_frame_rate)
            ? av_q2d(st.avg_frame_rate)
            : valid(st.r_frame_rate) && !isCoverArt ? av_q2d(st.r_frame_rate) : nil
        let aspect = parameters.sample_aspect_ratio
        return VideoStreamInfo(
            width: Int(parameters.width),
            height: Int(parameters.height),
            fps: fps,
            frameRate: valid(st.avg_frame_rate) ? "\(st.avg_frame_rate.num)/\(st.avg_frame_rate.den)" : nil,
            pixelFormat: cString(av_get_pix_fmt_name(pixelFormat)),
            bitDepth: descriptor.map { Int($0.pointee.comp.0.depth) },
            color: ColorInfo(
                space: parameters.color_space, range: parameters.color_range,
                transfer: parameters.color_trc, primaries: parameters.color_primaries),
            rotation: rotation(of: stream),
            sampleAspectRatio: aspect.num > 0 && aspect.den > 0 ? "\(aspect.num):\(aspect.den)" : nil
        )
    }

    private static func audioInfo(_ parameters: AVCodecParameters) -> AudioStreamInfo {
        var layout = parameters.ch_layout
        var description = [CChar](repeating: 0, count: 128)
        let described = av_channel_layout_describe(&layout, &description, description.count) > 0
        return AudioStreamInfo(
            sampleRate: Int(parameters.sample_rate),
            channels: Int(parameters.ch_layout.nb_channels),
            channelLayout: described ? string(fromNulTerminated: description) : nil,
            sampleFormat: cString(av_get_sample_fmt_name(AVSampleFormat(parameters.format)))
        )
    }

    private static func rotation(of stream: UnsafeMutablePointer<AVStream>) -> Double? {
        var size: Int = 0
        guard let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else { return nil }
        let degrees = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard degrees.isFinite else { return nil }
        let rounded = degrees.rounded()
        return rounded == 0 ? 0 : rounded  // no "-0"
    }

    private static func tag(_ key: String, in dictionary: OpaquePointer?) -> String? {
        guard let entry = av_dict_get(dictionary, key, nil, 0) else { return nil }
        return cString(entry.pointee.value)
    }

    private static func dispositionNames(_ disposition: Int32) -> [String] {
        (0..<31).compactMap { bit -> String? in
            let flag = Int32(1) << Int32(bit)
            guard disposition & flag != 0 else { return nil }
            return cString(av_disposition_to_string(flag))
        }
    }

    // MARK: - Packet scan

    /// A file cut short whose header still states the full duration (Matroska writes it at the front):
    /// its packets end well before that duration.
    private static func checkPacketsReachTheEnd(_ stats: [Int: PacketStats], of input: InputContainer) throws(MediaError) {
        guard let stated = input.statedDuration else { return }
        let starts = stats.values.compactMap { s in s.first.map { seconds($0, s.timeBase) } }
        let ends = stats.values.compactMap { s in s.end.map { seconds($0, s.timeBase) } }
        guard let start = starts.min(), let end = ends.max() else { return }
        let missing = stated - (end - start)
        if missing > max(1.0, 0.02 * stated) {
            throw MediaError(
                .corrupt, path: input.path,
                reason: "the file is truncated: its data ends at \(formatSeconds(end - start)) but the container says it lasts \(formatSeconds(stated))")
        }
    }

    private static func formatSeconds(_ value: Double) -> String {
        String((value * 1000).rounded() / 1000) + " s"
    }

    private struct PacketStats {
        var count = 0
        var first: Int64?
        var end: Int64?
        var timeBase: AVRational

        mutating func add(time: Int64, duration: Int64) {
            count += 1
            first = min(first ?? time, time)
            end = max(end ?? time, time + max(duration, 0))
        }

        var duration: Double? {
            guard let first, let end, end >= first else { return nil }
            return seconds(end - first, timeBase)
        }
    }

    /// Reads every packet: per stream, the count and the span from the earliest timestamp to the latest end.
    private static func measurePackets(of input: InputContainer) throws(MediaError) -> [Int: PacketStats] {
        var stats = input.streams.map { PacketStats(timeBase: $0.pointee.time_base) }
        let packet = Packet()
        let nopts = mlav_nopts_value()
        while try input.readPacket(into: packet) {
            let p = packet.pointer.pointee
            guard stats.indices.contains(Int(p.stream_index)) else { continue }
            let time = p.pts != nopts ? p.pts : p.dts
            if time == nopts {
                stats[Int(p.stream_index)].count += 1
            } else {
                stats[Int(p.stream_index)].add(time: time, duration: p.duration)
            }
        }
        return Dictionary(uniqueKeysWithValues: stats.enumerated().map { ($0.offset, $0.element) })
    }
}
