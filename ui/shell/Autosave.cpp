#include "ui/shell/Autosave.h"

#include "core/io/ScenarioJson.h"
#include "ui/document/ScenarioDocument.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QSaveFile>
#include <QStandardPaths>

namespace lp::ui {
namespace {
// The autosave file is a small envelope around the scenario's own JSON text.
const QString kFileName = QStringLiteral("autosave.json");
} // namespace

Autosave::Autosave(ScenarioDocument* doc, QString directory, QObject* parent)
    : QObject(parent), m_doc(doc), m_dir(std::move(directory)) {
    if (m_dir.isEmpty())
        m_dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(m_dir);
    m_lock = std::make_unique<QLockFile>(QDir(m_dir).filePath(QStringLiteral("autosave.lock")));
    m_lock->setStaleLockTime(0); // only a live process holds it; a crashed one's lock is stale
    m_primary = m_lock->tryLock(0);
    m_timer.setSingleShot(true);
    m_timer.setInterval(5000);
    connect(&m_timer, &QTimer::timeout, this, [this] { saveNow(); });
    connect(m_doc, &ScenarioDocument::scenarioChanged, this, &Autosave::scheduleSave);
    connect(m_doc, &ScenarioDocument::fileStateChanged, this, [this] {
        if (!writingPaused() && !m_doc->isModified()) {
            m_timer.stop();
            discard();
        }
    });
}

Autosave::~Autosave() = default;

QString Autosave::filePath() const {
    if (m_primary)
        return QDir(m_dir).filePath(kFileName);
    return QDir(m_dir).filePath(QStringLiteral("autosave-%1.json").arg(QCoreApplication::applicationPid()));
}

void Autosave::setSuspended(bool suspended) {
    m_suspended = suspended;
    if (!suspended)
        scheduleSave();
}

void Autosave::setTourRunning(bool running) {
    if (running == m_tourRunning)
        return;
    if (running) {
        saveNow();
        m_tourRunning = true;
        m_timer.stop();
        return;
    }
    m_tourRunning = false;
    if (m_suspended)
        return;
    if (m_doc->isModified())
        scheduleSave();
    else
        discard();
}

void Autosave::scheduleSave() {
    if (!writingPaused() && m_doc->isModified() && !m_timer.isActive())
        m_timer.start();
}

bool Autosave::saveNow() {
    m_timer.stop();
    if (writingPaused() || !m_doc->isModified())
        return false;
    if (!QDir().mkpath(m_dir))
        return false;
    QJsonObject envelope;
    envelope.insert(QStringLiteral("schema"), QStringLiteral("layout-planner/autosave"));
    envelope.insert(QStringLiteral("version"), 1);
    envelope.insert(QStringLiteral("originalPath"), m_doc->filePath());
    envelope.insert(QStringLiteral("savedAt"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    envelope.insert(QStringLiteral("scenario"),
                    QString::fromStdString(core::scenarioToJson(m_doc->scenario())));
    QSaveFile file(filePath());
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(QJsonDocument(envelope).toJson(QJsonDocument::Indented));
    return file.commit();
}

void Autosave::discard() {
    m_timer.stop();
    QFile::remove(filePath());
}

std::optional<AutosaveSnapshot> Autosave::pending() const {
    if (!m_primary)
        return std::nullopt; // the primary window's file belongs to a session that is still running
    QFile file(filePath());
    if (!file.exists() || !file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonDocument json = QJsonDocument::fromJson(file.readAll());
    file.close();
    const QJsonObject envelope = json.object();
    const QString text = envelope.value(QStringLiteral("scenario")).toString();
    auto scenario = core::scenarioFromJson(text.toStdString());
    if (!scenario) {
        QFile::remove(filePath()); // nothing usable to offer
        return std::nullopt;
    }
    AutosaveSnapshot snap;
    snap.scenario = *scenario;
    snap.originalPath = envelope.value(QStringLiteral("originalPath")).toString();
    snap.savedAt = QDateTime::fromString(envelope.value(QStringLiteral("savedAt")).toString(), Qt::ISODate);
    return snap;
}

} // namespace lp::ui
