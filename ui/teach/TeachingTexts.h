#pragma once
// The teaching texts (resources/teaching/*.json, compiled in under :/teaching/): written once, used by
// the tour, the tooltips, the quiz and the glossary. Code looks texts up by key and never holds them.
#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace lp::ui {

class TeachingTexts {
public:
    // The texts compiled into the application (":/teaching/texts.json"); loaded once.
    static const TeachingTexts& instance();
    explicit TeachingTexts(const QByteArray& json);

    // texts.json section.key, e.g. text("actions", "tour"); `fallback` when missing (visible in tests).
    QString text(const QString& section, const QString& key, const QString& fallback = {}) const;
    QByteArray raw() const { return m_raw; }
    bool isValid() const { return m_valid; }

    // A resource file as bytes (":/teaching/tour.json"); empty when it is missing.
    static QByteArray resource(const QString& path);

private:
    QByteArray m_raw;
    QJsonObject m_root;
    bool m_valid = false;
};

// TeachingTexts::instance().text(section, key) for keys written in the code: teachingText("actions", "tour").
QString teachingText(const char* section, const char* key);

} // namespace lp::ui
