/// Where a description of a JSON document goes: straight into compact text
/// (``JSONTextWriter``) or into a ``JSONValue`` (``JSONValueBuilder``). One description,
/// written once against this protocol, serves both, so the text `droprules serve` answers
/// a move with and the value a trace holds cannot disagree.
///
/// A description writes an object's members in sorted key order, the order
/// ``JSONValue/serialized(pretty:)`` writes: the text writer writes them as they come.
package protocol JSONSink {
  mutating func beginObject()
  mutating func endObject()
  mutating func beginArray()
  mutating func endArray()
  /// The key of the next member of the object being written.
  mutating func key(_ name: StaticString)
  mutating func null()
  mutating func bool(_ value: Bool)
  mutating func integer(_ value: Int64)
  mutating func string(_ value: String)
  /// A whole value made elsewhere.
  mutating func value(_ value: JSONValue)
}

extension JSONSink {
  /// The string, or null.
  package mutating func string(_ value: String?) {
    if let value { string(value) } else { null() }
  }

  /// The integer, or null.
  package mutating func integer(_ value: Int?) {
    if let value { integer(Int64(value)) } else { null() }
  }

  /// A coordinate, as ``JSONValue/coordinate(_:)`` makes it.
  package mutating func coordinate(_ value: Double) {
    let coordinate = JSONValue.coordinate(value)
    if case .integer(let whole) = coordinate { integer(whole) } else { self.value(coordinate) }
  }

  /// An array of strings.
  package mutating func strings(_ values: [String]) {
    beginArray()
    for value in values { string(value) }
    endArray()
  }
}

/// Writes compact JSON text into bytes as a description goes, with no value in between.
///
/// A class that owns its bytes: appending one is a store and a count, where an array
/// checks on every byte that it is unique and has room (a move's answer in
/// `droprules serve` writes some 900 bytes). Its storage is private: the compiler then
/// proves no access overlaps another and drops the runtime's exclusivity checks, which
/// cost a key four calls when the storage was open to other modules.
///
/// It holds at most ``byteLimit`` bytes: the write that would pass it is refused, and so
/// is every later one, until the text is rewound (``rewind(to:)``). Its storage never
/// grows past the limit, so what a writer holds is bounded by its limit whatever it is
/// asked to write; a value being written stops walking its elements once the writer is
/// full (``isFull``).
package final class JSONTextWriter: JSONSink, UTF8Output {
  private var start: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int
  /// How far the fast paths may write without asking: the capacity, no further than the
  /// limit, and the count itself once a write was refused (every later write then takes
  /// the slow path, which refuses it).
  private var room: Int
  /// The most bytes the text may hold.
  package private(set) var byteLimit: Int
  /// Whether a write was refused because it would pass ``byteLimit``: the text is then
  /// cut short, and only ``rewind(to:)`` makes it whole again.
  package private(set) var isFull = false
  /// Whether what comes next is a later member or element of its container, after a
  /// comma: false right after a bracket opens or a key is written.
  private var needsComma = false
  #if DEBUG
    /// The last key of each open container: a description that writes keys out of order
    /// would make text that differs from the value's, and stops here in tests.
    private var lastKeys: [[UInt8]] = []
  #endif

  /// A writer with room for `capacity` bytes at first, that holds at most `byteLimit`.
  package init(capacity: Int = 1024, byteLimit: Int = .max) {
    self.byteLimit = max(byteLimit, 0)
    self.capacity = max(min(capacity, self.byteLimit), 16)
    room = min(self.capacity, self.byteLimit)
    start = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
  }

  deinit { start.deallocate() }

  /// Where the text stands: ``rewind(to:)`` takes it back there.
  package struct Mark {
    fileprivate var count: Int
    fileprivate var needsComma: Bool
    #if DEBUG
      fileprivate var lastKeys: [[UInt8]]
    #endif
  }

  /// The text's length so far, in bytes.
  package var byteCount: Int { count }
  /// The bytes the writer's storage holds: never more than the limit (and a newline).
  package var reservedBytes: Int { capacity }

  /// Where the text stands now.
  package var mark: Mark {
    #if DEBUG
      Mark(count: count, needsComma: needsComma, lastKeys: lastKeys)
    #else
      Mark(count: count, needsComma: needsComma)
    #endif
  }

  /// Takes the text back to `mark`, forgetting what was written since, and whether a
  /// write was refused; `byteLimit` is the new limit (at least the text's length).
  package func rewind(to mark: Mark, byteLimit: Int? = nil) {
    count = mark.count
    needsComma = mark.needsComma
    #if DEBUG
      lastKeys = mark.lastKeys
    #endif
    if let byteLimit { self.byteLimit = max(byteLimit, count) }
    isFull = false
    room = min(capacity, self.byteLimit)
  }

  /// Lets the text grow without limit from now on (a frame around bounded answers, such
  /// as a batch's closing bracket). A refused write stays refused until a rewind.
  package func liftLimit() {
    byteLimit = .max
    if !isFull { room = capacity }
  }

  /// Calls `body` with the text and a newline, UTF-8: a line of a stream of JSON lines,
  /// lent without a copy. The newline is not counted against the limit.
  package func withLineBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    // One byte more, not double: a writer at its limit stays there.
    if count == capacity { grow(to: count + 1) }
    start[count] = UInt8(ascii: "\n")
    return try body(UnsafeRawBufferPointer(start: start, count: count + 1))
  }

  /// The text so far and a newline, UTF-8: a line of a stream of JSON lines.
  package var lineBytes: [UInt8] { withLineBytes { Array($0) } }
  /// The text so far.
  package var text: String { String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self) }

  private func grow(to larger: Int) {
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    moved.initialize(from: start, count: count)
    start.deallocate()
    start = moved
    capacity = larger
  }

  /// Makes room for `more` bytes, growing no further than the limit; false, refusing
  /// this write and every later one, when they would pass it.
  private func makeRoom(for more: Int) -> Bool {
    guard !isFull, more <= byteLimit - count else {
      isFull = true
      room = count
      return false
    }
    if count + more > capacity { grow(to: min(max(count + more, capacity * 2), byteLimit)) }
    room = min(capacity, byteLimit)
    return true
  }

  @inline(__always) func append(byte: UInt8) {
    if count == room, !makeRoom(for: 1) { return }
    start[count] = byte
    count += 1
  }

  @inline(__always) func append(bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    if count + bytes.count > room, !makeRoom(for: bytes.count) { return }
    (start + count).initialize(from: source, count: bytes.count)
    count += bytes.count
  }

  @inline(__always) private func separate() {
    if needsComma { append(byte: UInt8(ascii: ",")) }
    needsComma = true
  }

  private func open(_ bracket: UInt8) {
    separate()
    append(byte: bracket)
    needsComma = false
    #if DEBUG
      lastKeys.append([])
    #endif
  }

  private func close(_ bracket: UInt8) {
    append(byte: bracket)
    needsComma = true
    #if DEBUG
      lastKeys.removeLast()
    #endif
  }

  package func beginObject() { open(UInt8(ascii: "{")) }
  package func endObject() { close(UInt8(ascii: "}")) }
  package func beginArray() { open(UInt8(ascii: "[")) }
  package func endArray() { close(UInt8(ascii: "]")) }

  package func key(_ name: StaticString) {
    #if DEBUG
      checkOrder(of: name)
    #endif
    // `,"name":` at once: keys are plain ASCII names, written as they are.
    let length = name.utf8CodeUnitCount
    if count + length + 4 > room, !makeRoom(for: length + 4) {
      needsComma = false
      return
    }
    var end = start + count
    if needsComma {
      end.pointee = UInt8(ascii: ",")
      end += 1
    }
    end.pointee = UInt8(ascii: "\"")
    name.withUTF8Buffer { key in
      if let source = key.baseAddress { (end + 1).initialize(from: source, count: length) }
    }
    end += length + 1
    end[0] = UInt8(ascii: "\"")
    end[1] = UInt8(ascii: ":")
    count = end + 2 - start
    needsComma = false
  }

  #if DEBUG
    private func checkOrder(of name: StaticString) {
      let key = name.withUTF8Buffer { Array($0) }
      assert(
        lastKeys.last.map { $0.isEmpty || $0.lexicographicallyPrecedes(key) } ?? true,
        "JSON keys out of order: \(name) after \(String(decoding: lastKeys.last ?? [], as: UTF8.self))")
      if !lastKeys.isEmpty { lastKeys[lastKeys.count - 1] = key }
    }
  #endif

  package func null() {
    separate()
    append("null")
  }

  package func bool(_ value: Bool) {
    separate()
    append(value ? "true" : "false")
  }

  @inline(__always) private func append(_ word: StaticString) {
    if word.hasPointerRepresentation {
      append(bytes: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    } else {
      word.withUTF8Buffer { append(bytes: $0) }
    }
  }

  package func integer(_ value: Int64) {
    separate()
    var output = self
    JSONValue.writeInteger(value, to: &output)
  }

  package func string(_ value: String) {
    separate()
    var output = self
    JSONValue.writeString(value, to: &output)
  }

  package func value(_ value: JSONValue) {
    separate()
    var output = self
    value.write(to: &output, pretty: false, indent: 0)
  }
}

/// Confined to the one thread writing an answer.
@available(*, unavailable) extension JSONTextWriter: Sendable {}

/// Builds a ``JSONValue`` as a description goes.
package struct JSONValueBuilder: JSONSink {
  /// The open containers, innermost last: an object's fields and the key its next member
  /// has, or an array's elements. Kept apart so that each is changed in place.
  private var isObject: [Bool] = []
  private var objects: [[String: JSONValue]] = []
  private var keys: [String] = []
  private var arrays: [[JSONValue]] = []
  /// The document, once its outermost value is written.
  package private(set) var result: JSONValue = .null

  package init() {}

  /// The value `describe` writes.
  package static func build(_ describe: (inout JSONValueBuilder) -> Void) -> JSONValue {
    var builder = JSONValueBuilder()
    describe(&builder)
    return builder.result
  }

  private mutating func add(_ value: JSONValue) {
    guard let inObject = isObject.last else {
      result = value
      return
    }
    if inObject {
      objects[objects.count - 1][keys[keys.count - 1]] = value
    } else {
      arrays[arrays.count - 1].append(value)
    }
  }

  package mutating func beginObject() {
    isObject.append(true)
    objects.append([:])
    keys.append("")
  }

  package mutating func beginArray() {
    isObject.append(false)
    arrays.append([])
  }

  package mutating func endObject() {
    guard isObject.popLast() == true, let fields = objects.popLast() else {
      assertionFailure("endObject with no object open")
      return
    }
    keys.removeLast()
    add(.object(fields))
  }

  package mutating func endArray() {
    guard isObject.popLast() == false, let elements = arrays.popLast() else {
      assertionFailure("endArray with no array open")
      return
    }
    add(.array(elements))
  }

  package mutating func key(_ name: StaticString) {
    guard isObject.last == true else {
      assertionFailure("a key outside an object: \(name)")
      return
    }
    keys[keys.count - 1] = "\(name)"
  }

  package mutating func null() { add(.null) }
  package mutating func bool(_ value: Bool) { add(.bool(value)) }
  package mutating func integer(_ value: Int64) { add(.integer(value)) }
  package mutating func string(_ value: String) { add(.string(value)) }
  package mutating func value(_ value: JSONValue) { add(value) }
}
