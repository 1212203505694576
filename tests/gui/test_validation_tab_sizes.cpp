// The Validate tab at a laptop's and a projector's size (ui/validate): the set's name and the table's
// figures readable at 1280x720, and a plain message where the reference set is not found.
#include "GuiTestSupport.h"
#include "WindowTestSupport.h"
#include "ui/document/ValidationSets.h"
#include "ui/shell/TeachingMode.h"
#include "ui/teach/PresentationMode.h"
#include "ui/validate/ValidationModel.h"
#include "ui/validate/ValidationTab.h"
#include "ui/widgets/InlineBanner.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QSignalSpy>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTabWidget>
#include <QTableView>

using namespace lp;

namespace {

QString casesPath() {
    return QStringLiteral(LP_TEST_DATA_DIR "/validation/reference-runs.json");
}

// The set box shows `text` whole: it fits the box's text field.
bool comboShowsWhole(const QComboBox& box, const QString& text) {
    QStyleOptionComboBox opt;
    opt.initFrom(&box);
    const QRect field =
        box.style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, &box);
    return box.fontMetrics().horizontalAdvance(text) <= field.width() - 2;
}

// In the table as shown: the figures (metric, measured, predicted, error) whole and in view without
// scrolling sideways; case, GPUs and layout at least as wide as their headings, the row's tooltip has them
// whole where they are elided.
void verifyTableReadable(const ui::ValidationTab& tab, bool figuresInView = true) {
    QTableView* table = tab.table();
    const QFontMetrics fm = table->fontMetrics();
    const QAbstractItemModel* model = table->model();
    QVERIFY(model->rowCount() > 0);
    for (const int column : {ui::ValidationModel::MetricColumn, ui::ValidationModel::MeasuredColumn,
                             ui::ValidationModel::PredictedColumn, ui::ValidationModel::ErrorColumn}) {
        QVERIFY(!table->isColumnHidden(column));
        const int right = table->columnViewportPosition(column) + table->columnWidth(column);
        QVERIFY2(!figuresInView ||
                     (table->columnViewportPosition(column) >= 0 && right <= table->viewport()->width()),
                 qPrintable(QStringLiteral("column %1 is off the table's view: %2 of %3 px")
                                .arg(column)
                                .arg(right)
                                .arg(table->viewport()->width())));
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString text = model->index(row, column).data().toString();
            QVERIFY2(fm.horizontalAdvance(text) + 8 <= table->columnWidth(column),
                     qPrintable(QStringLiteral("cut: ") + text));
        }
    }
    QVERIFY(!table->isColumnHidden(ui::ValidationModel::CaseColumn));
    for (const int column : {ui::ValidationModel::CaseColumn, ui::ValidationModel::GpuColumn,
                             ui::ValidationModel::LayoutColumn}) {
        if (table->isColumnHidden(column)) // left out where narrow, in every row's tooltip
            continue;
        const QString heading = model->headerData(column, Qt::Horizontal).toString();
        QVERIFY(table->columnWidth(column) >= fm.horizontalAdvance(heading) + 8);
        const QModelIndex first = model->index(0, column);
        if (fm.horizontalAdvance(first.data().toString()) + 8 > table->columnWidth(column))
            QVERIFY(first.data(Qt::ToolTipRole).toString().contains(model->index(0, 0).data().toString()));
    }
}

} // namespace

class TestValidationTabSizes : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    // A laptop's 1280x720 window, then a projector's presentation fonts: the set's name shows whole (or,
    // where the line is too short, elided with the whole name in the tooltip), the figures of the table
    // whole and in view.
    void readableAtLaptopSize() {
        auto w = test::makeFullQuietWindow();
        auto* tab = w->findChild<ui::ValidationTab*>();
        QVERIFY(tab);
        QVERIFY(tab->loadCasesFile(casesPath()));
        w->tabs()->setCurrentWidget(tab);
        w->resize(1280, 720);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QTest::qWait(100);
        QComboBox* set = tab->setCombo();
        QVERIFY(set->currentText().startsWith(QStringLiteral("Reference set")));
        QVERIFY2(comboShowsWhole(*set, set->currentText()),
                 qPrintable(QStringLiteral("%1 px for the set's name").arg(set->width())));
        verifyTableReadable(*tab);

        ui::TeachingMode::of(*w)->presentation()->setActive(true);
        w->setWindowState(Qt::WindowNoState); // a projector's 1280x720, not the test screen
        w->resize(1280, 720);
        QTest::qWait(150);
        QVERIFY(comboShowsWhole(*set, set->currentText()) || set->toolTip().contains(set->currentText()));
        // The figures alone are wider than the page here: whole, the table scrolls sideways to the last ones.
        verifyTableReadable(*tab, false);
        ui::TeachingMode::of(*w)->presentation()->setActive(false);
    }

    // Run from a build folder with no data beside it: the tab says the reference set was not found, where
    // it looked and how to point to one; the set box shows no set as chosen.
    void saysPlainlyWhenTheReferenceSetIsMissing() {
        QTemporaryDir empty;
        const QStringList looked{empty.filePath(QStringLiteral("shared/reference/published-runs.json")),
                                 empty.filePath(QStringLiteral("data/layout-planner/published-runs.json"))};
        ui::ValidationTab::DataLookup nothing;
        nothing.referenceCandidates = [&] { return looked; };
        nothing.sets = [] { return std::vector<ui::ValidationSet>{}; };
        auto w = test::makeFullQuietWindow();
        auto* tab = w->findChild<ui::ValidationTab*>();
        QVERIFY(tab);
        tab->setDataLookup(nothing);
        w->tabs()->setCurrentWidget(tab); // shown for the first time: it looks for the reference set
        w->resize(1280, 720);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QTRY_VERIFY(tab->banner()->isVisible());
        QCOMPARE(tab->caseCount(), 0);
        QVERIFY(tab->banner()->title().contains(QStringLiteral("not found")));
        for (const QString& path : looked)
            QVERIFY2(tab->banner()->details().contains(QDir::toNativeSeparators(path)), qPrintable(path));
        QVERIFY(tab->banner()->details().contains(QStringLiteral("Open a file of measured runs")));
        QComboBox* set = tab->setCombo();
        QCOMPARE(set->currentIndex(), -1);
        QVERIFY(set->currentText().isEmpty());
        QVERIFY(!set->isEnabled());
        QCOMPARE(set->placeholderText(), QStringLiteral("No sets found"));
        QCOMPARE(tab->findChild<QLabel*>(QStringLiteral("casesFileLabel"))->text(),
                 QStringLiteral("No set loaded"));

        // Other sets found, the reference set not: none is shown as loaded; choosing one loads it.
        ui::ValidationTab::DataLookup others = nothing;
        others.sets = [] {
            return std::vector<ui::ValidationSet>{
                {ui::validationSetTitle(QStringLiteral("vtrain-runs.json")),
                 QStringLiteral(LP_TEST_DATA_DIR "/validation/vtrain-runs.json")}};
        };
        tab->setDataLookup(others);
        QVERIFY(!tab->loadDefaultCases());
        QCOMPARE(set->currentIndex(), -1);
        QVERIFY(set->isEnabled());
        QVERIFY(set->placeholderText().startsWith(QStringLiteral("No set loaded")));
        QVERIFY(tab->banner()->details().contains(QStringLiteral("another set in the Set box")));
        QSignalSpy loaded(tab, &ui::ValidationTab::casesLoaded);
        set->setCurrentIndex(0);
        emit set->activated(0);
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(tab->caseCount(), 1549);
        QCOMPARE(set->currentIndex(), 0);
        QVERIFY(!tab->banner()->isVisible());
    }
};

QTEST_MAIN(TestValidationTabSizes)
#include "test_validation_tab_sizes.moc"
