#include "core/io/Files.h"

#include "core/io/detail/TempFileCleanup.h"

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace lp::core {
namespace {

std::atomic<void (*)()> g_saveInterruptionHook{nullptr};

std::string errnoText(int e) {
    return std::generic_category().message(e);
}

std::string limitText() {
    return std::to_string(kMaxFileBytes / (1024 * 1024)) + " MiB";
}

// Reads `fd` to its end; `what` names it in messages ("/x/s.json", "standard input").
std::expected<std::string, std::string> readAllFrom(int fd, const std::string& what) {
    const auto failed = [&](int e) { return std::unexpected("cannot read " + what + ": " + errnoText(e)); };
    const auto tooLarge = [&]() {
        return std::unexpected("cannot read " + what + ": " +
                               (what == "standard input" ? "the input" : "the file") + " is larger than " +
                               limitText() + ", the limit for input files");
    };
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        return failed(errno);
    if (S_ISDIR(st.st_mode))
        return failed(EISDIR);
    if (S_ISREG(st.st_mode) && static_cast<unsigned long long>(st.st_size) > kMaxFileBytes)
        return tooLarge();
    std::string text;
    try {
        if (S_ISREG(st.st_mode))
            text.reserve(static_cast<std::size_t>(st.st_size));
        char buf[65536];
        for (;;) {
            const ssize_t n = ::read(fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                return failed(errno);
            if (n == 0)
                break;
            if (text.size() + static_cast<std::size_t>(n) > kMaxFileBytes)
                return tooLarge();
            text.append(buf, static_cast<std::size_t>(n));
        }
    } catch (const std::exception&) {
        return failed(ENOMEM);
    }
    return text;
}

// The open stream a path names: "-" and /dev/stdout are 1, /dev/stderr 2, /dev/fd/N and /proc/self/fd/N are
// N.
std::optional<int> streamOf(const std::string& path) {
    if (path == "-" || path == "/dev/stdout")
        return 1;
    if (path == "/dev/stderr")
        return 2;
    for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        if (!path.starts_with(prefix))
            continue;
        int fd = -1;
        const char* first = path.data() + prefix.size();
        const char* last = path.data() + path.size();
        const auto [end, ec] = std::from_chars(first, last, fd);
        if (ec == std::errc() && end == last && first != last && fd >= 0)
            return fd;
    }
    return std::nullopt;
}

// Writes all of `content`; 0, or the errno of the failure.
int writeAll(int fd, std::string_view content) {
    const char* data = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    return 0;
}

std::string notAFileText(mode_t mode) {
    const char* kind = S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket" : "not a regular file";
    return std::string("it is ") + kind +
           ", which a save never replaces (saves replace regular files and write through character devices "
           "such as /dev/null and FIFOs)";
}

// A character device or FIFO: written through, as a shell's `>` would, never replaced.
std::expected<void, std::string> writeThrough(const std::string& path, std::string_view content) {
    const auto fail = [&](const std::string& why) {
        return std::unexpected("cannot write " + path + ": " + why);
    };
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return fail(errno == ENXIO ? "it is a FIFO (named pipe) that no process is reading"
                                   : errnoText(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        ::close(fd);
        return fail("it changed while being saved");
    }
    (void)::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK); // a slow reader makes the save wait
    const int written = writeAll(fd, content);
    const int closed = ::close(fd) == 0 ? 0 : errno;
    if (written != 0 || closed != 0)
        return fail(errnoText(written != 0 ? written : closed));
    return {};
}

// A unique temporary file beside `target`, renamed over it once complete and flushed.
std::expected<void, std::string> replaceAtomically(const std::string& path, const std::string& target,
                                                   const struct stat* old, std::string_view content) {
    const auto fail = [&](int e) { return std::unexpected("cannot write " + path + ": " + errnoText(e)); };
    const auto slash = target.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
    const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);

    // Beside the target, so that the rename stays on one file system.
    static std::atomic<unsigned> counter{0};
    detail::TempFileCleanup cleanup;
    std::string temp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        temp = dir + "/." + base.substr(0, 100) + ".tmp-" + std::to_string(::getpid()) + "-" +
               std::to_string(counter.fetch_add(1));
        cleanup.track(temp);
        fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            return fail(errno);
    }
    if (fd < 0)
        return fail(EEXIST);
    const auto abandon = [&](int e) {
        if (fd >= 0)
            ::close(fd);
        ::unlink(temp.c_str());
        return fail(e);
    };
    if (old)
        (void)::fchmod(fd, old->st_mode & 07777); // keep the old file's permissions

    const std::size_t half = content.size() / 2;
    if (const int e = writeAll(fd, content.substr(0, half)); e != 0)
        return abandon(e);
    if (auto hook = g_saveInterruptionHook.load())
        hook();
    if (const int e = writeAll(fd, content.substr(half)); e != 0)
        return abandon(e);
    if (::fsync(fd) != 0)
        return abandon(errno);
    const int closed = ::close(fd);
    fd = -1;
    if (closed != 0)
        return abandon(errno);
    if (::rename(temp.c_str(), target.c_str()) != 0)
        return abandon(errno);
    cleanup.release();
    // Make the rename itself durable; a failure here does not undo the save.
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        (void)::fsync(dirFd);
        ::close(dirFd);
    }
    return {};
}

} // namespace

std::expected<std::string, std::string> readTextFile(const std::string& path) {
    if (path.empty())
        return std::unexpected("cannot read a file: no file name given");
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return std::unexpected("cannot read " + path + ": " + errnoText(errno));
    auto text = readAllFrom(fd, path);
    ::close(fd);
    return text;
}

std::expected<std::string, std::string> readStandardInput() {
    return readAllFrom(STDIN_FILENO, "standard input");
}

bool isStreamPath(const std::string& path) {
    return streamOf(path).has_value();
}

std::expected<void, std::string> writeFileAtomically(const std::string& path, std::string_view content) {
    if (path.empty())
        return std::unexpected("cannot write a file: no file name given");
    const auto fail = [&](const std::string& why) {
        return std::unexpected("cannot write " + path + ": " + why);
    };
    if (content.size() > kMaxFileBytes)
        return fail("the file would be " + std::to_string(content.size()) + " bytes, over the " +
                    limitText() + " (" + std::to_string(kMaxFileBytes) +
                    " bytes) limit for files, so it could not be read back; nothing was written");
    if (const auto fd = streamOf(path)) {
        if (const int e = writeAll(*fd, content); e != 0)
            return fail(errnoText(e));
        return {};
    }
    if (path.back() == '/')
        return fail(errnoText(EISDIR));
    struct stat st {};
    const bool exists = ::stat(path.c_str(), &st) == 0; // follows symbolic links
    if (exists && S_ISDIR(st.st_mode))
        return fail(errnoText(EISDIR));
    if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
        return writeThrough(path, content);
    if (exists && !S_ISREG(st.st_mode))
        return fail(notAFileText(st.st_mode));

    // Replace what a symbolic link points to, keeping the link.
    std::string target = path;
    struct stat link {};
    if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
        if (char* resolved = ::realpath(path.c_str(), nullptr)) {
            target = resolved;
            std::free(resolved);
        }
    }
    return replaceAtomically(path, target, exists ? &st : nullptr, content);
}

void setSaveInterruptionHookForTests(void (*hook)()) {
    g_saveInterruptionHook.store(hook);
}

} // namespace lp::core
