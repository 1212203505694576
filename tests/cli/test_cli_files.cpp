// layout-planner-cli's files: -o to standard output, devices, FIFOs and folders; the one size limit for what
// it writes and reads, standard input included. Part of test_cli (its files_ group).
#include "CliRunner.h"

#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <vector>

using nlohmann::json;
using namespace lp::test::cli;

namespace {

constexpr std::size_t kLimit = 64u * 1024u * 1024u; // docs/formats.md, 'Files'

// A shell command line with the CLI as "$CLI": for pipes and redirections run() does not make.
Result runShell(const std::string& line) {
    const fs::path outFile = tempFile("stdout"), errFile = tempFile("stderr");
    const std::string cmd = "CLI=" + quote(g_cli) + "; " + line + " >" + quote(outFile.string()) + " 2>" +
                            quote(errFile.string());
    const int status = std::system(("sh -c " + quote(cmd)).c_str());
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    r.out = readAll(outFile);
    r.err = readAll(errFile);
    fs::remove(outFile);
    fs::remove(errFile);
    return r;
}

mode_t typeOf(const fs::path& p) {
    struct stat st {};
    return ::lstat(p.c_str(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

// A sparse file of `size` zero bytes: costs no disk.
fs::path sparseFile(const std::string& stem, std::size_t size) {
    const fs::path p = tempFile(stem);
    const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    LP_CHECK(fd >= 0 && ::ftruncate(fd, static_cast<off_t>(size)) == 0);
    ::close(fd);
    return p;
}

// ---------------------------------------------------------------- -o FILE

LP_TEST(files_output_to_standard_output) {
    for (const std::string target : {"-", "/dev/stdout"}) {
        const auto r = run({"scenario", "--tp", "4", "-o", target});
        LP_CHECK_EQ(r.code, 0);
        LP_CHECK_EQ(r.parsed()["layout"].value("tp", 0), 4);
        LP_CHECK(!contains(r.err, "wrote"));
        const auto report = run({"report", "--format", "md", "-o", target});
        LP_CHECK(report.code == 0 && contains(report.out, "# ") && !contains(report.err, "wrote"));
    }
}

LP_TEST(files_output_through_a_fifo) {
    const fs::path fifo = workDir() / "scenario.fifo";
    fs::remove(fifo);
    LP_CHECK(::mkfifo(fifo.c_str(), 0644) == 0);
    // No reader: refused with the reason, and the FIFO stays a FIFO.
    const auto unread = run({"scenario", "-o", fifo.string()});
    LP_CHECK_EQ(unread.code, 1);
    LP_CHECK(contains(unread.err, "is a FIFO (named pipe) that no process is reading"));
    LP_CHECK_EQ(typeOf(fifo), static_cast<mode_t>(S_IFIFO));
    // A reader (this test, so that no timing matters): the scenario goes through.
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    LP_CHECK(reader >= 0);
    const auto r = run({"scenario", "--pp", "2", "-o", fifo.string()});
    LP_CHECK_EQ(r.code, 0);
    std::string got;
    char buf[4096];
    for (ssize_t n; (n = ::read(reader, buf, sizeof buf)) > 0;)
        got.append(buf, static_cast<std::size_t>(n));
    ::close(reader);
    LP_CHECK_EQ(json::parse(got)["layout"].value("pp", 0), 2);
    LP_CHECK_EQ(typeOf(fifo), static_cast<mode_t>(S_IFIFO));
    fs::remove(fifo);
}

LP_TEST(files_output_never_replaces_devices_or_folders) {
    // A folder: refused, kept.
    const fs::path dir = workDir() / "a-folder";
    fs::create_directories(dir);
    const auto onDir = run({"report", "-o", dir.string()});
    LP_CHECK(onDir.code == 1 && contains(onDir.err, "Is a directory"));
    LP_CHECK(fs::is_directory(dir));
    // A copy of the null device (as root; never /dev itself): written through, still a device.
    if (::geteuid() != 0)
        return;
    const fs::path null = workDir() / "null";
    fs::remove(null);
    if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
        return;
    const int probe = ::open(null.c_str(), O_WRONLY);
    if (probe < 0)
        return; // mounted nodev
    ::close(probe);
    for (const char* command : {"scenario", "report"}) {
        const auto r = run({command, "-o", null.string()});
        LP_CHECK_EQ(r.code, 0);
        LP_CHECK_EQ(typeOf(null), static_cast<mode_t>(S_IFCHR));
    }
    fs::remove(null);
}

// ---------------------------------------------------------------- one size limit

LP_TEST(files_what_scenario_writes_it_reads) {
    // A compact file just under the limit loads; its pretty-printed rewrite would pass the limit, so it is
    // refused with the reason, to a file as to standard output, and nothing is written.
    json j = run({"scenario"}).parsed();
    j["notes"] = "";
    const std::size_t base = j.dump().size();
    j["notes"] = std::string(kLimit - 16 - base, 'n');
    const fs::path big = tempFile("compact-big");
    {
        std::ofstream out(big, std::ios::binary);
        out << j.dump();
    }
    LP_CHECK_EQ(fs::file_size(big), kLimit - 16);
    const fs::path rewritten = tempFile("rewritten");
    const auto r = run({"scenario", big.string(), "-o", rewritten.string()});
    LP_CHECK_EQ(r.code, 1);
    LP_CHECK(
        contains(r.err, "over the 64 MiB (67108864 bytes) limit for files, so it could not be read back"));
    LP_CHECK(!fs::exists(rewritten));
    const auto toStdout = run({"scenario", big.string()});
    LP_CHECK(toStdout.code == 1 && toStdout.out.empty());
    fs::remove(big);
}

LP_TEST(files_standard_input_has_the_file_limit) {
    const fs::path over = sparseFile("stdin-over", kLimit + 1);
    // Through a pipe (read until the limit is passed) and redirected from a file (its size is known).
    for (const std::string& line : {"cat " + quote(over.string()) + " | \"$CLI\" analyze-log -",
                                    "\"$CLI\" analyze-log - <" + quote(over.string())}) {
        const auto r = runShell(line);
        LP_CHECK_EQ(r.code, 2);
        LP_CHECK(contains(r.err,
                          "cannot read standard input: the input is larger than 64 MiB, the limit for input "
                          "files"));
    }
    fs::remove(over);
}

} // namespace
