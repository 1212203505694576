#include "core/io/Files.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace lp::core {
namespace {

constexpr std::size_t kMaxFileBytes = 64u * 1024u * 1024u;

std::string errnoText(int e) {
    return std::generic_category().message(e);
}

} // namespace

std::expected<std::string, std::string> readTextFile(const std::string& path) {
    if (path.empty())
        return std::unexpected("cannot read a file: no file name given");
    const auto failed = [&](int e) { return std::unexpected("cannot read " + path + ": " + errnoText(e)); };
    const auto tooLarge = [&]() {
        return std::unexpected("cannot read " + path + ": the file is larger than " +
                               std::to_string(kMaxFileBytes / (1024 * 1024)) +
                               " MiB, the limit for input files");
    };
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return failed(errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        return failed(e);
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        return failed(EISDIR);
    }
    if (S_ISREG(st.st_mode) && static_cast<unsigned long long>(st.st_size) > kMaxFileBytes) {
        ::close(fd);
        return tooLarge();
    }
    std::string text;
    try {
        if (S_ISREG(st.st_mode))
            text.reserve(static_cast<std::size_t>(st.st_size));
        char buf[65536];
        for (;;) {
            const ssize_t n = ::read(fd, buf, sizeof buf);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                const int e = errno;
                ::close(fd);
                return failed(e);
            }
            if (n == 0)
                break;
            if (text.size() + static_cast<std::size_t>(n) > kMaxFileBytes) {
                ::close(fd);
                return tooLarge();
            }
            text.append(buf, static_cast<std::size_t>(n));
        }
    } catch (const std::exception&) {
        ::close(fd);
        return failed(ENOMEM);
    }
    ::close(fd);
    return text;
}

std::expected<void, std::string> writeFileAtomically(const std::string& path, std::string_view content) {
    if (path.empty())
        return std::unexpected("cannot write a file: no file name given");
    const auto fail = [&](int e) { return std::unexpected("cannot write " + path + ": " + errnoText(e)); };

    // Replace what a symbolic link points to, keeping the link.
    std::string target = path;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        if (char* resolved = ::realpath(path.c_str(), nullptr)) {
            target = resolved;
            std::free(resolved);
        }
    }
    if (target.back() == '/')
        return fail(EISDIR);
    const bool exists = ::stat(target.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return fail(EISDIR);

    const auto slash = target.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
    const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);

    // A unique temporary file beside the target, so that the rename stays on one file system.
    static std::atomic<unsigned> counter{0};
    std::string temp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        temp = dir + "/." + base.substr(0, 100) + ".tmp-" + std::to_string(::getpid()) + "-" +
               std::to_string(counter.fetch_add(1));
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
    if (exists)
        (void)::fchmod(fd, st.st_mode & 07777); // keep the old file's permissions

    const char* data = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return abandon(errno);
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0)
        return abandon(errno);
    const int closed = ::close(fd);
    fd = -1;
    if (closed != 0)
        return abandon(errno);
    if (::rename(temp.c_str(), target.c_str()) != 0)
        return abandon(errno);
    // Make the rename itself durable; a failure here does not undo the save.
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        (void)::fsync(dirFd);
        ::close(dirFd);
    }
    return {};
}

} // namespace lp::core
