#include "ui/teach/GlossaryDialog.h"

#include "core/estimate/Explain.h"
#include "core/estimate/KeyFigures.h"
#include "core/report/RunFigures.h"
#include "core/util/NumberFormat.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/teach/TeachingTexts.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace lp::ui {
namespace {
QStringList strings(const QJsonValue& v) {
    QStringList out;
    for (const QJsonValue& s : v.toArray())
        out << s.toString();
    return out;
}
QString esc(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}
} // namespace

std::vector<GlossaryTerm> parseGlossary(const QByteArray& json, QStringList* errors) {
    std::vector<GlossaryTerm> out;
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        if (errors)
            *errors << QStringLiteral("glossary: %1").arg(error.errorString());
        return out;
    }
    for (const QJsonValue& v : doc.object().value(QStringLiteral("terms")).toArray()) {
        const QJsonObject o = v.toObject();
        GlossaryTerm t;
        t.id = o.value(QStringLiteral("id")).toString();
        t.term = o.value(QStringLiteral("term")).toString();
        t.aliases = strings(o.value(QStringLiteral("aliases")));
        t.shortText = o.value(QStringLiteral("short")).toString();
        t.longText = o.value(QStringLiteral("long")).toString();
        t.formula = o.value(QStringLiteral("formula")).toString();
        t.explainKey = o.value(QStringLiteral("explain")).toString();
        t.see = strings(o.value(QStringLiteral("see")));
        if (t.id.isEmpty() || t.term.isEmpty() || t.shortText.isEmpty()) {
            if (errors)
                *errors << QStringLiteral("glossary: a term lacks its id, term or short definition (%1)")
                               .arg(t.id);
            continue;
        }
        out.push_back(std::move(t));
    }
    return out;
}

GlossaryDialog::GlossaryDialog(ScenarioDocument* doc, QWidget* parent)
    : QDialog(parent), m_doc(doc),
      m_terms(parseGlossary(TeachingTexts::resource(QStringLiteral(":/teaching/glossary.json")))),
      m_search(new QLineEdit(this)), m_list(new QListWidget(this)), m_details(new QTextBrowser(this)) {
    setObjectName(QStringLiteral("glossaryDialog"));
    setWindowTitle(tr("Glossary"));
    m_search->setObjectName(QStringLiteral("glossarySearch"));
    m_search->setPlaceholderText(tr("Search terms, e.g. bubble, ZeRO, all-reduce"));
    m_search->setClearButtonEnabled(true);
    m_list->setObjectName(QStringLiteral("glossaryList"));
    m_details->setObjectName(QStringLiteral("glossaryDetails"));
    m_details->setOpenLinks(false);
    for (const GlossaryTerm& t : m_terms) {
        auto* item = new QListWidgetItem(t.term, m_list);
        item->setData(Qt::UserRole, t.id);
        item->setToolTip(t.shortText);
    }

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_search);
    leftLayout->addWidget(m_list, 1);
    auto* split = new QSplitter(this);
    split->addWidget(left);
    split->addWidget(m_details);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setCollapsible(0, false);
    // Every term reads whole, without a sideways scroll bar under the list (nor a splitter drag to one).
    m_list->setMinimumWidth(m_list->sizeHintForColumn(0) + 2 * m_list->frameWidth() +
                            m_list->verticalScrollBar()->sizeHint().width() + 4);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);
    resize(860, 560);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_search, &QLineEdit::textChanged, this, &GlossaryDialog::filter);
    connect(m_list, &QListWidget::currentRowChanged, this, &GlossaryDialog::showDetails);
    connect(m_details, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("glossary"))
            showTerm(url.path());
    });
    // Enter in the search field picks the first match.
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        for (int i = 0; i < m_list->count(); ++i) {
            if (!m_list->item(i)->isHidden()) {
                m_list->setCurrentRow(i);
                m_list->setFocus();
                break;
            }
        }
    });
    if (m_doc)
        connect(m_doc, &ScenarioDocument::planChanged, this, [this] {
            if (isVisible())
                showDetails();
        });
    if (m_list->count() > 0)
        m_list->setCurrentRow(0);
}

// A term whose name, id or alias holds the text ranks above one that only mentions it in its definitions.
QStringList GlossaryDialog::matching(const QString& text) const {
    const QString needle = text.trimmed();
    QStringList byName;
    QStringList byDefinition;
    for (const GlossaryTerm& t : m_terms) {
        if (needle.isEmpty() || t.term.contains(needle, Qt::CaseInsensitive) ||
            t.id.contains(needle, Qt::CaseInsensitive) ||
            t.aliases.join(QLatin1Char('\n')).contains(needle, Qt::CaseInsensitive))
            byName << t.id;
        else if (t.shortText.contains(needle, Qt::CaseInsensitive) ||
                 t.longText.contains(needle, Qt::CaseInsensitive))
            byDefinition << t.id;
    }
    return byName + byDefinition;
}

// The matches go to the top of the list in their rank's order and the best one is selected; the other
// terms stay below, hidden, in glossary order.
void GlossaryDialog::filter(const QString& text) {
    const QStringList ids = matching(text);
    const QString previous = currentTermId();
    QStringList order = ids;
    for (const GlossaryTerm& t : m_terms)
        if (!ids.contains(t.id))
            order << t.id;
    {
        const QSignalBlocker blocker(m_list);
        for (int row = 0; row < order.size(); ++row) {
            for (int from = row; from < m_list->count(); ++from) {
                if (m_list->item(from)->data(Qt::UserRole).toString() == order[row]) {
                    if (from != row)
                        m_list->insertItem(row, m_list->takeItem(from));
                    break;
                }
            }
            m_list->item(row)->setHidden(row >= ids.size());
        }
        const qsizetype keep = order.indexOf(previous);
        const bool searching = !text.trimmed().isEmpty();
        m_list->setCurrentRow(searching || keep < 0 || keep >= ids.size() ? 0 : static_cast<int>(keep));
    }
    if (ids.isEmpty())
        m_details->setHtml(tr("<p>No term matches <i>%1</i>.</p>").arg(text.toHtmlEscaped()));
    else
        showDetails();
}

bool GlossaryDialog::showTerm(const QString& id) {
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->data(Qt::UserRole).toString() == id) {
            if (m_list->item(i)->isHidden())
                m_search->clear();
            m_list->setCurrentRow(i);
            showDetails();
            return true;
        }
    }
    return false;
}

QString GlossaryDialog::currentTermId() const {
    const QListWidgetItem* item = m_list->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

void GlossaryDialog::showDetails() {
    const QString id = currentTermId();
    for (const GlossaryTerm& t : m_terms) {
        if (t.id == id) {
            m_details->setHtml(html(t));
            return;
        }
    }
}

void GlossaryDialog::setUnit(MemoryUnit unit) {
    if (unit == m_unit)
        return;
    m_unit = unit;
    showDetails();
}

QString GlossaryDialog::html(const GlossaryTerm& t) const {
    QString h = QStringLiteral("<h2>%1</h2>").arg(t.term.toHtmlEscaped());
    if (!t.aliases.isEmpty())
        h += QStringLiteral("<p><i>%1 %2</i></p>")
                 .arg(tr("Also:"), t.aliases.join(QStringLiteral(", ")).toHtmlEscaped());
    h += QStringLiteral("<p><b>%1</b></p>").arg(t.shortText.toHtmlEscaped());
    h += QStringLiteral("<p>%1</p>").arg(t.longText.toHtmlEscaped());
    if (!t.formula.isEmpty())
        h += QStringLiteral("<p><code>%1</code></p>").arg(t.formula.toHtmlEscaped());
    // The figure in the current plan, explained by the core: formula, values, source, words.
    if (m_doc && !t.explainKey.isEmpty()) {
        if (const auto e = core::explainFigure(m_doc->shownScenario(), m_doc->shownPlan(),
                                               t.explainKey.toStdString(), m_unit)) {
            h += QStringLiteral("<h3>%1</h3>").arg(tr("In the current plan: %1").arg(esc(e->label)));
            h += QStringLiteral("<p><b>%1</b></p>")
                     .arg(esc(core::explanationValueText(
                         *e, core::report::figureCards(m_doc->shownScenario(), m_doc->shownPlan(), m_unit),
                         m_unit)));
            h += QStringLiteral("<p><code>%1</code><br><code>%2</code></p>")
                     .arg(esc(e->formula), esc(e->substituted));
            h += QStringLiteral("<p>%1</p><p><small>%2 %3</small></p>")
                     .arg(esc(e->words), tr("Source:"), esc(e->source));
        }
    }
    if (!t.see.isEmpty()) {
        QStringList links;
        for (const QString& id : t.see) {
            QString name = id;
            for (const GlossaryTerm& other : m_terms)
                if (other.id == id)
                    name = other.term;
            links << QStringLiteral("<a href=\"glossary:%1\">%2</a>")
                         .arg(id.toHtmlEscaped(), name.toHtmlEscaped());
        }
        h += QStringLiteral("<p>%1 %2</p>").arg(tr("See also:"), links.join(QStringLiteral(" · ")));
    }
    return h;
}

} // namespace lp::ui
