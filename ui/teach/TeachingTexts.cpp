#include "ui/teach/TeachingTexts.h"

#include <QFile>
#include <QJsonDocument>

namespace lp::ui {

const TeachingTexts& TeachingTexts::instance() {
    static const TeachingTexts texts(resource(QStringLiteral(":/teaching/texts.json")));
    return texts;
}

TeachingTexts::TeachingTexts(const QByteArray& json) : m_raw(json) {
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    m_valid = error.error == QJsonParseError::NoError && doc.isObject();
    if (m_valid)
        m_root = doc.object();
}

QString TeachingTexts::text(const QString& section, const QString& key, const QString& fallback) const {
    const QJsonValue v = m_root.value(section).toObject().value(key);
    return v.isString() ? v.toString() : (fallback.isEmpty() ? section + QLatin1Char('.') + key : fallback);
}

QString teachingText(const char* section, const char* key) {
    return TeachingTexts::instance().text(QString::fromLatin1(section), QString::fromLatin1(key));
}

QByteArray TeachingTexts::resource(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

} // namespace lp::ui
