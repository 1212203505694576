#include "ui/teach/Tour.h"

#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/Format.h"

#include <QFile>
#include <QSettings>

#include <algorithm>

namespace lp::ui {
namespace {
const QString kStepKey = QStringLiteral("teaching/tourStep");

} // namespace

Tour::Tour(ScenarioDocument* doc, QObject* parent) : QObject(parent), m_doc(doc) {
    setObjectName(QStringLiteral("tour"));
    // Another file (New, Open, a restore) replaces the undo history: the tour ends, leaving it be.
    connect(m_doc, &ScenarioDocument::replaced, this, [this] {
        m_start.reset();
        stop();
    });
}

bool Tour::load(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        m_errors = {tr("Cannot read the tour %1: %2").arg(path, f.errorString())};
        return false;
    }
    return loadFromJson(f.readAll());
}

bool Tour::loadFromJson(const QByteArray& json) {
    m_errors.clear();
    auto parsed =
        core::tourFromJson(std::string_view(json.constData(), static_cast<std::size_t>(json.size())));
    if (!parsed) {
        for (const core::InputError& e : parsed.error())
            m_errors << qs(e.message());
        return false;
    }
    m_script = std::move(*parsed);
    if (m_current >= count())
        stop();
    return true;
}

const core::TourStep* Tour::currentStep() const {
    return m_current >= 0 && m_current < count() ? &m_script.steps[static_cast<std::size_t>(m_current)]
                                                 : nullptr;
}

QString Tour::currentHtml() const {
    const core::TourStep* step = currentStep();
    if (!step)
        return {};
    return qs(core::expandFigures(step->text, m_doc->shownScenario(), m_doc->shownPlan(), m_unit));
}

void Tour::setUnit(MemoryUnit unit) {
    if (unit == m_unit)
        return;
    m_unit = unit;
    emit unitChanged();
}

std::vector<core::CheckResult> Tour::currentChecks() const {
    const core::TourStep* step = currentStep();
    if (!step)
        return {};
    return core::checkStep(*step, m_doc->scenario(), m_doc->plan());
}

int Tour::savedStep() const {
    if (!m_persistent)
        return 0;
    const int step = QSettings().value(kStepKey, 0).toInt();
    return step >= 0 && step < count() ? step : 0;
}

void Tour::save(int step) const {
    if (m_persistent)
        QSettings().setValue(kStepKey, step);
}

void Tour::start(int step) {
    if (count() == 0)
        return;
    goTo(step < 0 ? savedStep() : step);
}

void Tour::next() {
    if (!isActive())
        return;
    if (m_current + 1 >= count()) {
        save(0); // finished: the next tour starts at the beginning
        end();
        emit finished();
        return;
    }
    goTo(m_current + 1);
}

void Tour::back() {
    if (isActive() && m_current > 0)
        goTo(m_current - 1);
}

void Tour::goTo(int step) {
    if (count() == 0)
        return;
    step = std::clamp(step, 0, count() - 1);
    const bool wasActive = isActive();
    if (!wasActive) {
        m_start = m_doc->historyMark();
        emit starting();
    }
    m_current = step;
    apply(step);
    save(step);
    if (!wasActive)
        emit activeChanged(true);
    emit stepChanged(step);
    const core::TourStep& s = m_script.steps[static_cast<std::size_t>(step)];
    emit highlightRequested(qs(s.target));
    if (!s.explain.empty())
        emit explainRequested(qs(s.explain));
}

void Tour::stop() {
    if (!isActive())
        return;
    save(m_current);
    end();
}

void Tour::end() {
    m_current = -1;
    restoreUserScenario();
    emit highlightRequested(QString());
    emit activeChanged(false);
}

// Undoes the tour's steps (and whatever was tried during it), so the scenario, the undo and redo
// history and the saved/unsaved state are those from before the tour.
void Tour::restoreUserScenario() {
    if (m_start)
        m_doc->rewindTo(*m_start);
    m_start.reset();
}

void Tour::apply(int step) {
    const core::TourStep& s = m_script.steps[static_cast<std::size_t>(step)];
    auto scenario = core::scenarioForStep(s);
    if (!scenario) {
        QStringList lines;
        for (const core::InputError& e : scenario.error())
            lines << qs(e.message());
        emit problem(tr("Step \"%1\" of the tour has a bad scenario: %2")
                         .arg(qs(s.id), lines.join(QStringLiteral("; "))));
        return;
    }
    m_doc->edit(*scenario, tr("Tour step %1: %2").arg(step + 1).arg(qs(s.title)));
}

} // namespace lp::ui
