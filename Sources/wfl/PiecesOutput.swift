import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes json or csv output formatted on two threads: the main thread formats the even pieces
/// and a second thread the odd ones, each into its own reused buffer; the pieces are written in
/// order, in large blocks, to standard output (or collected for `-o`). The bytes are those of
/// `JSONFormat.format` / `CSVFormat.format` (OutputPiecesTests).
func emitPieces(_ pieces: OutputPieces, collect: Bool) -> [UInt8] {
    var collected: [UInt8] = []
    var mine = ByteWriter(capacity: 1 << 22)
    let other = PieceJob(pieces)
    // For -o, the whole output is kept: its size is guessed from the first rows, so that it is
    // allocated once and not copied as it doubles (at 10,000,000 json rows, 1.3 GB: the doubling
    // touched twice the memory and took most of the time).
    var rowsSeen = 0
    let totalRows = pieces.totalRows
    func deliver(_ bytes: [UInt8]) {
        if collect {
            if collected.capacity < collected.count + bytes.count, rowsSeen > 0, rowsSeen < totalRows {
                let perRow = Double(collected.count + bytes.count) / Double(rowsSeen)
                collected.reserveCapacity(Int(perRow * Double(totalRows) * 1.05) + bytes.count)
            }
            collected.append(contentsOf: bytes)
        } else {
            writeAll(STDOUT_FILENO, bytes)
        }
    }
    if !collect { flushOutput() }
    var k = 0
    while k < pieces.count {
        // Piece k here, piece k + 1 on the other thread (when the pieces are worth a thread).
        let pair = k + 1 < pieces.count
        let thread = pair ? other.start(k + 1) : nil
        mine.removeAll()
        pieces.write(k, into: &mine)
        if pair && thread == nil { other.runHere(k + 1) }
        if let thread { other.join(thread) }
        rowsSeen += pieces.rows(k) + (pair ? pieces.rows(k + 1) : 0)
        deliver(mine.bytes)
        if pair { deliver(other.writer.bytes) }
        k += 2
    }
    return collected
}

/// The second thread's piece and its buffer.
final class PieceJob {
    let pieces: OutputPieces
    var writer = ByteWriter(capacity: 1 << 22)
    var piece = 0

    init(_ pieces: OutputPieces) { self.pieces = pieces }

    func runHere(_ k: Int) {
        writer.removeAll()
        pieces.write(k, into: &writer)
    }

    /// Starts formatting piece `k` on a new thread; nil when no thread could be made.
    func start(_ k: Int) -> pthread_t? {
        piece = k
        let context = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t? = nil
        #endif
        let started = pthread_create(&thread, nil, { raw in
            let job = Unmanaged<PieceJob>.fromOpaque(raw!).takeRetainedValue()
            job.runHere(job.piece)
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<PieceJob>.fromOpaque(context).release()
            return nil
        }
        #if canImport(Glibc)
        return thread
        #else
        return thread!
        #endif
    }

    func join(_ thread: pthread_t) { pthread_join(thread, nil) }
}
