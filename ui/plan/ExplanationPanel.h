#pragma once
// Shows the core's explanation of one figure: its formula, the formula with the current values
// substituted, the words, and the source. Follows the Plan as it changes.
#include "core/estimate/Explain.h"
#include "ui/widgets/Format.h"

#include <QTimer>
#include <QWidget>

class QTextBrowser;
class QLabel;

namespace lp::ui {

class ScenarioDocument;

class ExplanationPanel : public QWidget {
    Q_OBJECT
public:
    explicit ExplanationPanel(ScenarioDocument* doc, QWidget* parent = nullptr);

    QString currentKey() const { return m_key; }
    QString currentHtml() const;
    QTextBrowser* browser() const { return m_browser; }
    void setUnit(MemoryUnit unit);

public slots:
    void showKey(const QString& key);

signals:
    void keyChanged(const QString& key);

private:
    void refresh();
    void changeEvent(QEvent* event) override;
    ScenarioDocument* m_doc;
    QString m_key;
    MemoryUnit m_unit = MemoryUnit::GiB;
    QTimer m_throttle;  // during a drag the text follows at most every few frames
    QTimer m_trustPoll; // until the published runs' groups are ready (BundledValidationGroups.h)
    QString m_html;
    QTextBrowser* m_browser;
};

} // namespace lp::ui
