#include "ui/interop/LaunchSettingsDialog.h"

#include "core/estimate/Evaluate.h"
#include "ui/widgets/Format.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QTabWidget>
#include <QVBoxLayout>

namespace lp::ui {
LaunchSettingsDialog::LaunchSettingsDialog(const core::Scenario& scenario, QWidget* parent)
    : QDialog(parent), m_tabs(new QTabWidget(this)), m_status(new QLabel(this)) {
    setWindowTitle(tr("Launch settings"));
    setObjectName(QStringLiteral("launchSettingsDialog"));
    m_status->setObjectName(QStringLiteral("launchStatus"));
    m_status->setWordWrap(true);
    auto* intro =
        new QLabel(tr("The current layout as the settings a training framework takes. Paste them into your "
                      "launch script or config; the notes say what a framework cannot express."),
                   this);
    intro->setWordWrap(true);

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (const auto target : core::kLaunchTargets) {
        Page& page = m_pages[static_cast<std::size_t>(indexOf(target))];
        auto* widget = new QWidget(m_tabs);
        auto* layout = new QVBoxLayout(widget);
        page.text = new QPlainTextEdit(widget);
        page.text->setReadOnly(true);
        page.text->setFont(mono);
        page.text->setLineWrapMode(QPlainTextEdit::NoWrap);
        page.text->setObjectName(QStringLiteral("launchText_%1").arg(qs(core::toString(target))));
        page.notes = new QLabel(widget);
        page.notes->setWordWrap(true);
        page.notes->setTextFormat(Qt::PlainText);
        page.notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(page.text, 1);
        layout->addWidget(page.notes);
        m_tabs->addTab(widget, qs(core::displayName(target)));
    }

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    m_copy->setToolTip(tr("Copy the shown settings to the clipboard"));
    m_save = buttons->addButton(tr("&Save as..."), QDialogButtonBox::ActionRole);
    connect(m_copy, &QPushButton::clicked, this, &LaunchSettingsDialog::copyCurrent);
    connect(m_save, &QPushButton::clicked, this, &LaunchSettingsDialog::saveCurrent);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { m_status->setText(m_layoutWarning); });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(820, 620);
    setScenario(scenario);
}

int LaunchSettingsDialog::indexOf(core::LaunchTarget target) {
    switch (target) {
    case core::LaunchTarget::Megatron:
        return 0;
    case core::LaunchTarget::DeepSpeed:
        return 1;
    case core::LaunchTarget::Torchtitan:
        return 2;
    }
    return 0;
}

void LaunchSettingsDialog::setScenario(const core::Scenario& scenario) {
    for (const auto target : core::kLaunchTargets) {
        Page& page = m_pages[static_cast<std::size_t>(indexOf(target))];
        page.settings = core::exportLaunchSettings(scenario, target);
        page.text->setPlainText(QString::fromStdString(page.settings.text));
        QStringList notes;
        for (const auto& n : page.settings.notes)
            notes << QStringLiteral("\u2022 ") + QString::fromStdString(n);
        page.notes->setText(notes.join(QLatin1Char('\n')));
        page.notes->setVisible(!notes.isEmpty());
    }
    QStringList problems;
    for (const auto& d : core::checkLayout(scenario))
        problems << qs(core::diagnosticIdString(d.id));
    m_layoutWarning = problems.isEmpty() ? QString()
                                         : tr("This layout is invalid (%1): fix it before launching.")
                                               .arg(problems.join(QStringLiteral(", ")));
    m_status->setText(m_layoutWarning);
}

QString LaunchSettingsDialog::text(core::LaunchTarget target) const {
    return QString::fromStdString(m_pages[static_cast<std::size_t>(indexOf(target))].settings.text);
}

QString LaunchSettingsDialog::notes(core::LaunchTarget target) const {
    QStringList out;
    for (const auto& n : m_pages[static_cast<std::size_t>(indexOf(target))].settings.notes)
        out << QString::fromStdString(n);
    return out.join(QLatin1Char('\n'));
}

core::LaunchTarget LaunchSettingsDialog::currentTarget() const {
    const int i = m_tabs->currentIndex();
    return i == 1   ? core::LaunchTarget::DeepSpeed
           : i == 2 ? core::LaunchTarget::Torchtitan
                    : core::LaunchTarget::Megatron;
}

void LaunchSettingsDialog::setCurrentTarget(core::LaunchTarget target) {
    m_tabs->setCurrentIndex(indexOf(target));
}

void LaunchSettingsDialog::copyCurrent() {
    const core::LaunchTarget target = currentTarget();
    QGuiApplication::clipboard()->setText(text(target));
    const QString what = tr("%1 settings copied to the clipboard").arg(qs(core::displayName(target)));
    m_status->setText(what);
    emit copied(what);
}

bool LaunchSettingsDialog::saveCurrent() {
    const Page& page = m_pages[static_cast<std::size_t>(indexOf(currentTarget()))];
    const QString suggested = QDir::home().filePath(QString::fromStdString(page.settings.fileName));
    const QString path = m_chooseFile(this, tr("Save launch settings"), suggested, tr("All files (*)"));
    if (path.isEmpty())
        return false;
    QSaveFile file(path);
    bool ok = file.open(QIODevice::WriteOnly);
    if (ok) {
        file.write(QByteArray::fromStdString(page.settings.text));
        ok = file.commit();
    }
    m_status->setText(ok ? tr("Saved %1").arg(QDir::toNativeSeparators(path))
                         : tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    return ok;
}

} // namespace lp::ui
