// Files in and out (core/io/Files.h): saves that never replace what is not a regular file, temporary files
// removed when a signal ends a save, one size limit for reading and writing (standard input included), and
// where a too deeply nested file goes too deep.
#include "IoTestSupport.h"

#include <csignal>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>

namespace {

bool isFifo(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

LP_TEST(savesWriteThroughFifos) {
    TempDir dir;
    const std::string fifo = dir.file("pipe");
    LP_CHECK(::mkfifo(fifo.c_str(), 0644) == 0);
    // Nobody reads it: refused, not replaced.
    const auto unread = writeFileAtomically(fifo, "{}");
    LP_CHECK(!unread.has_value() && contains(unread.error(), "FIFO (named pipe) that no process is reading"));
    LP_CHECK(isFifo(fifo));
    // A reader: the text goes through it, and the FIFO stays.
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    LP_CHECK(reader >= 0);
    LP_CHECK(writeFileAtomically(fifo, "through the pipe").has_value());
    char buf[64] = {};
    LP_CHECK_EQ(::read(reader, buf, sizeof buf), static_cast<ssize_t>(16));
    LP_CHECK_EQ(std::string(buf), std::string("through the pipe"));
    ::close(reader);
    LP_CHECK(isFifo(fifo));
    LP_CHECK(dir.entries() == std::vector<std::string>{"pipe"});
}

LP_TEST(savesWriteThroughCharacterDevices) {
    // A copy of the null device in a temporary folder (as root), else /dev/null itself (which another user
    // cannot replace anyway): never the real one as root, where a wrong save would replace it.
    TempDir dir;
    std::string null = "/dev/null";
    if (::geteuid() == 0) {
        null = dir.file("null");
        if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            return; // no devices here (a container without CAP_MKNOD)
        const int probe = ::open(null.c_str(), O_WRONLY);
        if (probe < 0)
            return; // a file system mounted nodev
        ::close(probe);
    }
    LP_CHECK(writeFileAtomically(null, "gone").has_value());
    LP_CHECK(saveScenarioFile(null, defaultScenario()).has_value());
    struct stat st {};
    LP_CHECK(::lstat(null.c_str(), &st) == 0 && S_ISCHR(st.st_mode));
    if (::geteuid() == 0)
        LP_CHECK(dir.entries() == std::vector<std::string>{"null"});
}

LP_TEST(savesGoToOpenStreams) {
    int fds[2];
    LP_CHECK(::pipe(fds) == 0);
    LP_CHECK(isStreamPath("-") && isStreamPath("/dev/stdout") && isStreamPath("/dev/fd/3"));
    LP_CHECK(!isStreamPath("/dev/fd/x") && !isStreamPath("/dev/null") && !isStreamPath("out.json"));
    LP_CHECK(writeFileAtomically("/dev/fd/" + std::to_string(fds[1]), "streamed").has_value());
    LP_CHECK(writeFileAtomically("/proc/self/fd/" + std::to_string(fds[1]), "+").has_value());
    ::close(fds[1]);
    char buf[64] = {};
    LP_CHECK_EQ(::read(fds[0], buf, sizeof buf), static_cast<ssize_t>(9));
    LP_CHECK_EQ(std::string(buf), std::string("streamed+"));
    ::close(fds[0]);
}

LP_TEST(savesRefuseSocketsAndDirectories) {
    TempDir dir;
    const std::string path = dir.file("sock");
    const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
    LP_CHECK(s >= 0 && ::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    const auto onSocket = writeFileAtomically(path, "x");
    LP_CHECK(!onSocket.has_value());
    if (!onSocket)
        LP_CHECK_EQ(onSocket.error(),
                    "cannot write " + path +
                        ": it is a socket, which a save never replaces (saves replace regular "
                        "files and write through character devices such as /dev/null and "
                        "FIFOs)");
    struct stat st {};
    LP_CHECK(::lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode));
    ::close(s);

    // A symbolic link to a folder is the folder.
    fs::create_directory(dir.file("folder"));
    fs::create_directory_symlink("folder", dir.file("link"));
    const auto onLink = writeFileAtomically(dir.file("link"), "x");
    LP_CHECK(!onLink.has_value() && contains(onLink.error(), "Is a directory"));
    LP_CHECK(fs::is_symlink(dir.file("link")));
    LP_CHECK((dir.entries() == std::vector<std::string>{"folder", "link", "sock"}));
}

// ---------------------------------------------------------------------------------------------
// Signals during a save

namespace {
int g_signal = 0;
void raiseSignal() {
    std::raise(g_signal);
}
} // namespace

LP_TEST(aSignalDuringASaveRemovesTheTemporaryFile) {
    TempDir dir;
    const std::string path = dir.file("s.json");
    writeAll(path, "old");
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
        const pid_t child = ::fork();
        if (child == 0) {
            struct sigaction current {};
            ::sigaction(sig, nullptr, &current);
            if (current.sa_handler == SIG_IGN)
                ::_exit(77); // ignored where the tests run (nohup): nothing to check
            g_signal = sig;
            setSaveInterruptionHookForTests(raiseSignal); // halfway through writing the temporary file
            (void)writeFileAtomically(path, std::string(1 << 20, 'x'));
            ::_exit(0);
        }
        int status = 0;
        LP_CHECK(child > 0 && ::waitpid(child, &status, 0) == child);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
            continue;
        LP_CHECK(WIFSIGNALED(status) && WTERMSIG(status) == sig); // ended by the signal, as if never caught
        LP_CHECK(dir.entries() == std::vector<std::string>{"s.json"});
        LP_CHECK_EQ(readAll(path), std::string("old"));
    }
}

// ---------------------------------------------------------------------------------------------
// One size limit

LP_TEST(theSizeLimitHoldsForWritingAsForReading) {
    TempDir dir;
    // A scenario exactly at the limit saves (to the null device: no disk time) and loads; one byte more is
    // refused, and nothing is written.
    Scenario s = defaultScenario();
    s.notes.clear();
    const std::size_t base = scenarioToJson(s).size();
    s.notes.assign(kMaxFileBytes - base, 'n');
    const std::string text = scenarioToJson(s);
    LP_CHECK_EQ(text.size(), kMaxFileBytes);
    const int null = ::open("/dev/null", O_WRONLY);
    LP_CHECK(null >= 0 && writeFileAtomically("/dev/fd/" + std::to_string(null), text).has_value());
    ::close(null);
    const auto back = scenarioFromJson(text);
    LP_CHECK(back.has_value() && back->notes.size() == s.notes.size());

    const std::string over = dir.file("over.json");
    const auto refused = writeFileAtomically(over, text + "\n");
    LP_CHECK(!refused.has_value());
    if (!refused)
        LP_CHECK_EQ(refused.error(), "cannot write " + over +
                                         ": the file would be 67108865 bytes, over the 64 MiB "
                                         "(67108864 bytes) limit for files, so it could not be "
                                         "read back; nothing was written");
    LP_CHECK(!writeFileAtomically("-", text + "\n").has_value()); // standard output too

    // Reading: a file of the limit's size reads (sparse: no disk time), one byte more does not.
    const std::string atLimit = dir.file("at-limit.json");
    const int fd = ::open(atLimit.c_str(), O_WRONLY | O_CREAT, 0644);
    LP_CHECK(fd >= 0 && ::ftruncate(fd, static_cast<off_t>(kMaxFileBytes)) == 0);
    const auto read = readTextFile(atLimit);
    LP_CHECK(read.has_value() && read->size() == kMaxFileBytes);
    LP_CHECK(::ftruncate(fd, static_cast<off_t>(kMaxFileBytes + 1)) == 0);
    ::close(fd);
    LP_CHECK(!readTextFile(atLimit).has_value());
    LP_CHECK(dir.entries() == std::vector<std::string>{"at-limit.json"});
}

LP_TEST(standardInputHasTheFileLimit) {
    // A pipe of one byte over the limit, fed by a child: refused once the limit is passed.
    int fds[2];
    LP_CHECK(::pipe(fds) == 0);
    const pid_t child = ::fork();
    if (child == 0) {
        ::close(fds[0]);
        const std::string chunk(1 << 20, '1');
        std::size_t left = kMaxFileBytes + 1;
        while (left > 0) {
            const ssize_t n = ::write(fds[1], chunk.data(), std::min(left, chunk.size()));
            if (n <= 0)
                ::_exit(0); // the reader stopped early, as it should
            left -= static_cast<std::size_t>(n);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    const int savedStdin = ::dup(STDIN_FILENO);
    ::dup2(fds[0], STDIN_FILENO);
    ::close(fds[0]);
    const auto text = readStandardInput();
    ::dup2(savedStdin, STDIN_FILENO);
    ::close(savedStdin);
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    LP_CHECK(!text.has_value());
    if (!text)
        LP_CHECK_EQ(text.error(),
                    "cannot read standard input: the input is larger than 64 MiB, the limit for input "
                    "files");
}

// ---------------------------------------------------------------------------------------------
// Nesting too deep

LP_TEST(tooDeepNestingSaysWhere) {
    const std::string deep = std::string(70, '[') + std::string(70, ']');
    const auto underKey = scenarioFromJson(scenarioText("\n  \"model\": {\"layers\": " + deep + "}"));
    LP_CHECK(!underKey.has_value() && underKey.error().size() == 1);
    if (!underKey)
        LP_CHECK_EQ(
            underKey.error()[0].message(),
            "$.model.layers: the file is nested too deeply (more than 64 levels of objects and arrays): "
            "level 65 opens at line 2, column 85");
    if (!underKey)
        LP_CHECK(underKey.error()[0].line == 2 && underKey.error()[0].column == 85);
    // Brackets inside strings do not count; without a key the path is the whole file.
    const auto bare = scenarioFromJson("[\"[[[\", " + deep + "]");
    LP_CHECK(!bare.has_value() && bare.error()[0].path == "$" && bare.error()[0].column == 72);
}

LP_TEST_MAIN()
