import Basics
import Foundation
import Testing

@Suite struct JSONValueTests {
    struct Inner: Encodable {
        var width = 320
        var ratio = 0.5
    }

    struct Outer: Encodable {
        var zebra = "first"
        var apple: Int? = nil
        var list = [1, 2]
        var inner = Inner()
        var flag = true
        var optionalInner: Inner? = nil
    }

    @Test func keepsDeclarationOrderAndOmitsNil() throws {
        let json = try JSONValueEncoder().encode(Outer()).serialized()
        #expect(json == #"{"zebra":"first","list":[1,2],"inner":{"width":320,"ratio":0.5},"flag":true}"#)
    }

    @Test func prettyOutput() throws {
        let json = try JSONValueEncoder().encode(["a": [1]]).serialized(pretty: true)
        #expect(json == "{\n  \"a\": [\n    1\n  ]\n}")
        #expect(JSONValue.array([]).serialized(pretty: true) == "[]")
        #expect(JSONValue.object([]).serialized(pretty: true) == "{}")
    }

    /// `lineBreakDepth`: containers deeper than it on one line each, compact; the levels above indented.
    @Test func recordsOneToALine() {
        var writer = JSONWriter(pretty: true)
        writer.beginObject()
        writer.key("results")
        writer.beginArray()
        #expect(writer.openContainers == 2)
        writer.lineBreakDepth = writer.openContainers
        for id in 1...2 {
            writer.beginObject()
            writer.key("id"); writer.integer(id)
            writer.key(named: "tags"); writer.beginArray(); writer.string("a"); writer.string("b"); writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.lineBreakDepth = .max
        writer.key("done"); writer.bool(true)
        writer.endObject()
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text == "{\n  \"results\": [\n    {\"id\":1,\"tags\":[\"a\",\"b\"]},\n    {\"id\":2,\"tags\":[\"a\",\"b\"]}\n  ],\n  \"done\": true\n}")
    }

    @Test func numbers() {
        #expect(JSONValue.number(12).serialized() == "12")
        #expect(JSONValue.number(12.021).serialized() == "12.021")
        #expect(JSONValue.number(-0.8).serialized() == "-0.8")
        #expect(JSONValue.number(.nan).serialized() == "null")
        #expect(JSONValue.number(1e20).serialized() == "1e+20")
    }

    @Test func escapesStrings() {
        #expect(JSONValue.string("a\"b\\c\nd\u{1}é").serialized() == #""a\"b\\c\nd\u0001é""#)
    }

    /// Whatever is written parses back with Foundation's JSON reader to the same values.
    @Test func readsBackWithJSONSerialization() throws {
        let value = JSONValue.object([
            ("text", .string("line\ttab \u{7f} ✓")), ("n", .number(0.1)), ("i", .integer(-3)),
            ("nested", .array([.null, .bool(false)])),
        ])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(value.serialized().utf8)) as? [String: Any])
        #expect(parsed["text"] as? String == "line\ttab \u{7f} ✓")
        #expect(parsed["n"] as? Double == 0.1)
        #expect(parsed["i"] as? Int == -3)
        #expect((parsed["nested"] as? [Any])?.count == 2)
    }

    @Test func nestedContainersAndEnums() throws {
        enum Kind: String, Encodable { case video }
        struct Custom: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                var nested = container.nestedContainer(keyedBy: Key.self, forKey: .a)
                try nested.encode(Kind.video, forKey: .b)
                var list = container.nestedUnkeyedContainer(forKey: .b)
                try list.encode("x")
                var inner = list.nestedContainer(keyedBy: Key.self)
                try inner.encode(1, forKey: .a)
            }
            enum Key: String, CodingKey { case a, b }
        }
        #expect(try JSONValueEncoder().encode(Custom()).serialized() == #"{"a":{"b":"video"},"b":["x",{"a":1}]}"#)
    }

    /// Whole numbers written as `30.0` come back from JSON as integers: readers take either.
    @Test func numericAccessorsTakeIntegersAndNumbers() throws {
        let value = try JSONValue.parse(JSONValue.object([("fps", .number(30)), ("bin", .number(0.5))]).serialized())
        #expect(value["fps"] == .integer(30))
        #expect(value["fps"]?.doubleValue == 30 && value["fps"]?.intValue == 30)
        #expect(value["bin"]?.doubleValue == 0.5 && value["bin"]?.intValue == nil)
        #expect(JSONValue.string("30").doubleValue == nil)
    }
}
