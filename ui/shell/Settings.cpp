#include "ui/shell/Settings.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace lp::ui {
namespace {
const QString kUnits = QStringLiteral("view/memoryUnit");
const QString kKeep = QStringLiteral("layout/keepGpuCount");
const QString kHoldBatch = QStringLiteral("layout/holdGlobalBatch");
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kLast = QStringLiteral("files/lastScenario");
const QString kRecent = QStringLiteral("files/recent");
const QString kLastDirectory = QStringLiteral("files/lastDirectory");
const QString kTourHint = QStringLiteral("teaching/tourHintShown");
} // namespace

Settings::Settings(bool persistent, QObject* parent) : QObject(parent) {
    if (persistent) {
        m_store = new QSettings();
        load();
    }
}

Settings::~Settings() {
    delete m_store;
}

void Settings::load() {
    const QVariant units = m_store->value(kUnits, QStringLiteral("GiB"));
    const QString u = units.toString();
    if (u == QLatin1String("GB"))
        m_unit = MemoryUnit::GB;
    else if (u == QLatin1String("GiB"))
        m_unit = MemoryUnit::GiB;
    else
        m_problems << tr("%1: \"%2\" is not GB or GiB; using GiB")
                          .arg(kUnits, u.size() > 80 ? u.left(80) + QStringLiteral("...") : u);

    const QVariant keep = m_store->value(kKeep, true);
    if (keep.canConvert<bool>())
        m_keepGpuCount = keep.toBool();
    else
        m_problems << tr("%1: not a boolean; using true").arg(kKeep);
    const QVariant hold = m_store->value(kHoldBatch, false);
    if (hold.canConvert<bool>())
        m_holdGlobalBatch = hold.toBool();
    else
        m_problems << tr("%1: not a boolean; using false").arg(kHoldBatch);

    const QStringList recent = m_store->value(kRecent).toStringList();
    for (const QString& path : recent)
        if (!path.isEmpty() && !m_recent.contains(path) && m_recent.size() < kMaxRecent)
            m_recent << path;
}

void Settings::setMemoryUnit(MemoryUnit u) {
    if (u == m_unit)
        return;
    m_unit = u;
    if (m_store)
        m_store->setValue(kUnits, unitName(u));
    emit memoryUnitChanged(u);
}

void Settings::setKeepGpuCount(bool keep) {
    m_keepGpuCount = keep;
    if (m_store)
        m_store->setValue(kKeep, keep);
}

void Settings::setHoldGlobalBatch(bool hold) {
    m_holdGlobalBatch = hold;
    if (m_store)
        m_store->setValue(kHoldBatch, hold);
}

QByteArray Settings::geometry() const {
    return m_store ? m_store->value(kGeometry).toByteArray() : QByteArray();
}

void Settings::setGeometry(const QByteArray& g) {
    if (m_store)
        m_store->setValue(kGeometry, g);
}

QByteArray Settings::windowState() const {
    return m_store ? m_store->value(kState).toByteArray() : QByteArray();
}

void Settings::setWindowState(const QByteArray& s) {
    if (m_store)
        m_store->setValue(kState, s);
}

QString Settings::lastDirectory() const {
    if (!m_lastDirectory.isEmpty())
        return m_lastDirectory;
    const QString stored = m_store ? m_store->value(kLastDirectory).toString() : QString();
    return !stored.isEmpty() && QFileInfo(stored).isDir() ? stored : QDir::homePath();
}

void Settings::setLastDirectory(const QString& directory) {
    m_lastDirectory = directory;
    if (m_store)
        m_store->setValue(kLastDirectory, directory);
}

QString Settings::lastScenario() const {
    return m_store ? m_store->value(kLast).toString() : QString();
}

void Settings::setLastScenario(const QString& path) {
    if (m_store)
        m_store->setValue(kLast, path);
}

bool Settings::tourHintShown() const {
    return m_store && m_store->value(kTourHint, false).toBool();
}

void Settings::setTourHintShown() {
    if (m_store)
        m_store->setValue(kTourHint, true);
}

void Settings::addRecentFile(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    m_recent.removeAll(abs);
    m_recent.prepend(abs);
    while (m_recent.size() > kMaxRecent)
        m_recent.removeLast();
    if (m_store)
        m_store->setValue(kRecent, m_recent);
    emit recentFilesChanged();
}

void Settings::removeRecentFile(const QString& path) {
    if (m_recent.removeAll(path) == 0)
        return;
    if (m_store)
        m_store->setValue(kRecent, m_recent);
    emit recentFilesChanged();
}

} // namespace lp::ui
