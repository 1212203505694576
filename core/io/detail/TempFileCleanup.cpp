#include "core/io/detail/TempFileCleanup.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace lp::core::detail {
namespace {

constexpr int kSlots = 16; // saves running at the same time (the window's autosave beside a Save)

struct Slot {
    std::atomic<bool> taken{false};
    std::atomic<bool> armed{false}; // `path` holds a whole name
    char path[PATH_MAX + 1] = {};
};
std::array<Slot, kSlots> g_slots;

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void removeTempFilesAndReraise(int sig) {
    const int savedErrno = errno;
    for (Slot& slot : g_slots)
        if (slot.armed.load())
            ::unlink(slot.path);
    std::signal(sig, SIG_DFL);
    errno = savedErrno;
    std::raise(sig); // delivered when the handler returns: the default action, as if never caught
}

// Once per process, and only for signals whose action is still the default: a program that ignores SIGHUP
// (nohup) or handles SIGINT itself keeps doing so. Outside a save the handler acts as the default does.
void installHandlers() {
    static std::once_flag once;
    std::call_once(once, [] {
        for (const int sig : kSignals) {
            struct sigaction current {};
            if (::sigaction(sig, nullptr, &current) != 0 || current.sa_handler != SIG_DFL ||
                (current.sa_flags & SA_SIGINFO) != 0)
                continue;
            struct sigaction action {};
            action.sa_handler = removeTempFilesAndReraise;
            sigemptyset(&action.sa_mask);
            for (const int other : kSignals)
                sigaddset(&action.sa_mask, other);
            ::sigaction(sig, &action, nullptr);
        }
    });
}

} // namespace

bool TempFileCleanup::track(const std::string& path) {
    release();
    if (path.size() > PATH_MAX)
        return false;
    installHandlers();
    for (int i = 0; i < kSlots; ++i) {
        bool expected = false;
        if (g_slots[i].taken.compare_exchange_strong(expected, true)) {
            std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
            g_slots[i].armed.store(true);
            m_slot = i;
            return true;
        }
    }
    return false;
}

void TempFileCleanup::release() {
    if (m_slot < 0)
        return;
    g_slots[m_slot].armed.store(false);
    g_slots[m_slot].taken.store(false);
    m_slot = -1;
}

} // namespace lp::core::detail
