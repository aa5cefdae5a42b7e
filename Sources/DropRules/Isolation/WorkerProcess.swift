import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A running worker process and the host's end of its connection. The worker reads and
/// writes its end as its standard input.
final class WorkerProcess {
  let channel: WorkerChannel
  private let pid: pid_t
  private var running = true

  /// Starts `command` (an executable path, then its arguments) as a worker.
  init(command: [String], maximumMessageBytes: Int) throws(WorkerStartError) {
    guard let executable = command.first else { throw WorkerStartError(message: "the worker command is empty") }
    var ends: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
      throw WorkerStartError(message: "could not connect to a worker: \(String(cString: strerror(errno)))")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // The worker keeps its end as standard input (dup2 clears close-on-exec on the copy)
    // and writes nothing where the host writes (a protocol's answers on stdout): stderr
    // stays, for a crash's last words. It closes what else it inherited as it starts.
    posix_spawn_file_actions_adddup2(&actions, ends[1], 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let arguments = command.map { strdup($0) } + [nil]
    defer { for argument in arguments { free(argument) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, nil, arguments, environ)
    close(ends[1])
    guard status == 0 else {
      close(ends[0])
      throw WorkerStartError(
        message: "could not start the worker '\(executable)': \(String(cString: strerror(status)))")
    }
    _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
    self.pid = pid
    channel = WorkerChannel(descriptor: ends[0], maximumMessageBytes: maximumMessageBytes)
  }

  /// Stops the worker at once, wherever it is (its collector included), and reaps it.
  func stop() {
    guard running else { return }
    running = false
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    close(channel.descriptor)
  }

  deinit { stop() }
}

@available(*, unavailable) extension WorkerProcess: Sendable {}

/// Why a worker process could not start.
struct WorkerStartError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
