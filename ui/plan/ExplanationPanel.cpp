#include "ui/plan/ExplanationPanel.h"

#include "core/estimate/KeyFigures.h"
#include "core/measured/ValidationTrust.h"
#include "core/report/RunFigures.h"
#include "core/util/NumberFormat.h"
#include "ui/document/BundledValidationGroups.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/Format.h"

#include <QDesktopServices>
#include <QEvent>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace lp::ui {
namespace {

QString esc(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}

} // namespace

ExplanationPanel::ExplanationPanel(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_browser(new QTextBrowser(this)) {
    m_browser->setObjectName(QStringLiteral("explanation"));
    m_browser->setOpenLinks(false); // the band's runs open the Validate tab; any other link the browser
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("lp-validate"))
            showTrustRuns();
        else
            QDesktopServices::openUrl(url);
    });
    m_browser->setToolTip(
        tr("The formula behind the figure you last clicked (or point at), with this plan's values."));
    m_browser->setAccessibleName(tr("Explanation"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    m_throttle.setSingleShot(true);
    m_throttle.setInterval(60);
    connect(&m_throttle, &QTimer::timeout, this, &ExplanationPanel::refresh);
    m_trustPoll.setSingleShot(true);
    m_trustPoll.setInterval(100);
    connect(&m_trustPoll, &QTimer::timeout, this, &ExplanationPanel::refresh);
    connect(m_doc, &ScenarioDocument::planChanged, this, [this] {
        if (!m_throttle.isActive())
            m_throttle.start();
    });
    showKey(QStringLiteral("mfu"));
}

QString ExplanationPanel::currentHtml() const {
    return m_browser->toHtml();
}

void ExplanationPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        m_html.clear(); // the muted colours come from the palette
        refresh();
    }
}

void ExplanationPanel::setUnit(MemoryUnit unit) {
    m_unit = unit;
    refresh();
}

void ExplanationPanel::showKey(const QString& key) {
    m_chosenKey = key;
    display(key);
}

void ExplanationPanel::previewKey(const QString& key) {
    display(key.isEmpty() ? m_chosenKey : key);
}

void ExplanationPanel::display(const QString& key) {
    if (key == m_key)
        return;
    m_key = key;
    refresh();
    emit keyChanged(key);
}

void ExplanationPanel::refresh() {
    m_throttle.stop();
    const auto e =
        core::explainFigure(m_doc->shownScenario(), m_doc->shownPlan(), m_key.toStdString(), m_unit);
    if (!e) {
        m_html = tr("<p>No explanation is available for <code>%1</code>.</p>").arg(m_key.toHtmlEscaped());
        m_browser->setHtml(m_html);
        return;
    }
    const QColor muted = palette().color(QPalette::PlaceholderText);
    QString html;
    html += QStringLiteral("<h3 style='margin-bottom:2px'>%1</h3>").arg(esc(e->label));
    html += QStringLiteral("<p style='font-size:large; margin-top:0'><b>%1</b></p>")
                .arg(qs(core::explanationValueText(
                            *e, core::report::figureCards(m_doc->shownScenario(), m_doc->shownPlan(), m_unit),
                            m_unit))
                         .toHtmlEscaped());
    if (!e->words.empty())
        html += QStringLiteral("<p>%1</p>").arg(esc(e->words));
    html += QStringLiteral(
                "<p style='margin-bottom:2px'><b>%1</b></p><p style='margin-top:0'><code>%2</code></p>")
                .arg(tr("Formula"), esc(e->formula));
    html += QStringLiteral(
                "<p style='margin-bottom:2px'><b>%1</b></p><p style='margin-top:0'><code>%2</code></p>")
                .arg(tr("With this plan's values"), esc(e->substituted));
    if (!e->source.empty())
        html +=
            QStringLiteral("<p style='color:%1'>%2 %3</p>").arg(muted.name(), tr("Source:"), esc(e->source));
    // A throughput figure comes with how far the planner was off on published runs like this one (once the
    // worker has predicted them, a moment after the window opens).
    if (core::isThroughputFigure(m_key.toStdString()))
        html += trustHtml();
    if (m_doc->isShowingStalePlan())
        html += QStringLiteral("<p><i>%1</i></p>").arg(tr("Values of the last valid layout."));
    html += QStringLiteral("<p style='color:%1'>%2</p>")
                .arg(muted.name(),
                     tr("Click any figure, bar or gauge to explain it; point at one for a preview."));
    if (html != m_html) {
        m_html = html;
        m_browser->setHtml(html);
    }
}

void ExplanationPanel::showTrustRuns() {
    if (!m_trustRuns.isEmpty())
        emit validationRunsRequested(m_trustRuns);
}

QString ExplanationPanel::trustHtml() {
    const auto* groups = bundledValidationGroupsIfReady();
    const auto band = bundledTrustBand(m_doc->shownScenario(), m_doc->shownPlan());
    m_trustRuns.clear();
    if (!groups || !band) {
        m_trustPoll.start(); // one poll pending however often the text is refreshed meanwhile
        return {};
    }
    QString trust =
        qs(band->sentence) + QLatin1Char(' ') + qs(core::trustSentence(m_doc->shownScenario(), *groups));
    if (m_doc->profile().origin != "built-in") // the published runs were predicted without it
        trust += QLatin1Char(' ') + tr("Those runs were predicted with the built-in hardware "
                                       "profiles, not the measured profile now active.");
    QString html = QStringLiteral("<p style='margin-bottom:2px'><b>%1</b></p><p style='margin-top:0'>%2</p>")
                       .arg(tr("How far to trust it"), trust.toHtmlEscaped());
    if (band->available) {
        for (const std::string& id : band->caseIds)
            m_trustRuns << qs(id);
        html += QStringLiteral("<p><a href='lp-validate:runs'>%1</a></p>")
                    .arg(tr("Show these %n runs in the Validate tab", nullptr,
                            static_cast<int>(m_trustRuns.size())));
    }
    return html;
}

} // namespace lp::ui
