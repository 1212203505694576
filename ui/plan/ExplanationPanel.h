#pragma once
// Shows the core's explanation of one figure: its formula, the formula with the current values
// substituted, the words, and the source. Follows the Plan as it changes. The figure last clicked (or
// chosen with the keyboard, the tour, a menu) stays; pointing at another previews it until the pointer
// leaves.
#include "core/estimate/Explain.h"
#include "ui/widgets/Format.h"

#include <QStringList>
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

    QString currentKey() const { return m_key; }      // the figure shown now
    QString chosenKey() const { return m_chosenKey; } // the one shown when no preview is on
    QString currentHtml() const;
    QTextBrowser* browser() const { return m_browser; }
    void setUnit(MemoryUnit unit);

public slots:
    void showKey(const QString& key);
    // A preview of `key` while the pointer is on its figure; empty: back to the chosen figure.
    void previewKey(const QString& key);

    // The runs behind the shown plan's trust band (empty when it has none).
    QStringList trustRuns() const { return m_trustRuns; }
    // What the "Show these runs in the Validate tab" link does.
    void showTrustRuns();

signals:
    void keyChanged(const QString& key);
    // The link under a throughput figure's band: the window shows these runs in the Validate tab.
    void validationRunsRequested(const QStringList& caseIds);

private:
    void display(const QString& key);
    void refresh();
    QString trustHtml();
    void changeEvent(QEvent* event) override;
    ScenarioDocument* m_doc;
    QString m_key;
    QString m_chosenKey;
    MemoryUnit m_unit = MemoryUnit::GiB;
    QTimer m_throttle;  // during a drag the text follows at most every few frames
    QTimer m_trustPoll; // until the published runs' groups are ready (BundledValidationGroups.h)
    QString m_html;
    QStringList m_trustRuns;
    QTextBrowser* m_browser;
};

} // namespace lp::ui
