import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes json, csv or table output formatted on two threads: the main thread formats the even
/// pieces and a second thread the odd ones, each into its own reused buffer; the pieces are
/// written in order, in large blocks, to standard output. The bytes are those of
/// `JSONFormat.format` / `CSVFormat.format` / `TableFormat.format` (OutputPiecesTests).
func emitPieces(_ pieces: OutputPieces) {
    flushOutput()
    _ = emitPieces(pieces) { bytes in
        writeAll(STDOUT_FILENO, bytes)
        return nil
    }
}

/// The same into the file descriptor `fd` (for `-o`, the temporary file of `writeWhole`): the
/// output is written as it is made, never held whole (1.3 GB of json at 10,000,000 items). Returns
/// the errno of a failed write, or nil.
func emitPieces(_ pieces: OutputPieces, to fd: Int32) -> Int32? {
    emitPieces(pieces) { bytes in writeBytes(fd, bytes) }
}

/// Formats the pieces in order, two at a time, handing each piece's bytes to `deliver`; stops at
/// the first failure `deliver` returns.
func emitPieces(_ pieces: OutputPieces, deliver: ([UInt8]) -> Int32?) -> Int32? {
    var mine = ByteWriter(capacity: 1 << 22)
    let other = PieceJob(pieces)
    var k = 0
    while k < pieces.count {
        // Piece k here, piece k + 1 on the other thread (when the pieces are worth a thread).
        let pair = k + 1 < pieces.count
        let thread = pair ? other.start(k + 1) : nil
        mine.removeAll()
        pieces.write(k, into: &mine)
        if pair && thread == nil { other.runHere(k + 1) }
        if let thread { other.join(thread) }
        if let failure = deliver(mine.bytes) { return failure }
        if pair, let failure = deliver(other.writer.bytes) { return failure }
        k += 2
    }
    return nil
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
