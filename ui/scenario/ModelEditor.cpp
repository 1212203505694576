#include "ui/scenario/ModelEditor.h"

#include "core/io/Presets.h"
#include "core/util/NumberFormat.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/scenario/FormBinder.h"
#include "ui/scenario/ModelPresetBox.h"
#include "ui/widgets/CollapsibleSection.h"
#include "ui/widgets/Format.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace lp::ui {

namespace {

using core::ModelSpec;
using core::Scenario;
using Kind = FormField::Kind;

template <auto... Path> ScenarioValue model() {
    return scenarioValue<&Scenario::model, Path...>();
}

template <typename Enum> int option(Enum value) {
    return static_cast<int>(value);
}

// Every architecture field after the name: dense, then latent attention, then mixture of experts.
const std::vector<FormField> kArchitectureFields = {
    {.label = "&Layers",
     .tip = "Decoder layers (transformer blocks) L.",
     .value = model<&ModelSpec::layers>(),
     .range = {1, 1024}},
    {.label = "&Hidden size",
     .tip = "Hidden size h: the width of the residual stream.",
     .value = model<&ModelSpec::hidden>(),
     .range = {1, 1 << 20}},
    {.label = "Attention &heads",
     .tip = "Query heads a; the head size is h / a.",
     .value = model<&ModelSpec::heads>(),
     .range = {1, 4096}},
    {.label = "&KV heads",
     .tip = "Key/value heads k (fewer than a with grouped-query attention).",
     .value = model<&ModelSpec::kvHeads>(),
     .range = {1, 4096}},
    {.name = "headSize",
     .label = "Head si&ze",
     .tip = "Per-head width; 0 means hidden / heads (set it where Q is wider than h, as in Qwen3).",
     .value = model<&ModelSpec::headSize>(),
     .range = {0, 4096},
     .shown = {1, "", "h / heads"}}, // 0: derived from the hidden size and the heads
    {.label = "&FFN hidden",
     .tip = "MLP hidden size f of a dense layer.",
     .value = model<&ModelSpec::ffnHidden>(),
     .range = {1, 1 << 22}},
    {.label = "&Vocabulary",
     .tip = "Vocabulary size V (embedding and output head rows).",
     .value = model<&ModelSpec::vocab>(),
     .range = {1, 1 << 24}},
    {.label = "&Sequence length",
     .tip = "Training sequence length s in tokens.",
     .value = model<&ModelSpec::seqLen>(),
     .range = {1, 1 << 24}},
    {.kind = Kind::Choice,
     .label = "ML&P",
     .tip = "Gated MLPs (SwiGLU, GeGLU) have three matrices, plain ones (GELU, ReLU, Nemotron's squared "
            "ReLU) two.",
     .value = model<&ModelSpec::mlp>(),
     .choices = {{"SwiGLU (gated)", option(core::MlpKind::SwiGlu)},
                 {"GELU / ReLU (plain)", option(core::MlpKind::Gelu)}}},
    {.kind = Kind::Choice,
     .label = "N&orm",
     .tip = "RMSNorm has one weight vector per norm, LayerNorm two.",
     .value = model<&ModelSpec::norm>(),
     .choices = {{"RMSNorm", option(core::NormKind::RmsNorm)},
                 {"LayerNorm", option(core::NormKind::LayerNorm)}}},
    {.kind = Kind::Bool,
     .label = "Tied embeddings",
     .tip = "The output head shares the input embedding's weights.",
     .value = model<&ModelSpec::tiedEmbeddings>()},
    {.kind = Kind::Bool,
     .label = "Linear biases",
     .tip = "Linear layers carry bias vectors (GPT-2/3 yes, Llama no).",
     .value = model<&ModelSpec::biases>()},
    {.kind = Kind::Bool,
     .label = "Learned positions",
     .tip = "Learned absolute position embeddings (GPT-2/3) instead of RoPE.",
     .value = model<&ModelSpec::learnedPositions>()},
    {.kind = Kind::Bool,
     .label = "Dropout",
     .tip = "Dropout during training stores masks in the activations (GPT-2/3).",
     .value = model<&ModelSpec::dropout>()},
    {.kind = Kind::Choice,
     .label = "A&ttention",
     .tip = "Multi-head / grouped-query attention, or DeepSeek's multi-head latent attention (MLA).",
     .value = model<&ModelSpec::attention>(),
     .choices = {{"Multi-head / GQA", option(core::AttentionKind::Standard)},
                 {"Latent (MLA)", option(core::AttentionKind::Mla)}}},
    {.kind = Kind::Heading, .label = "<b>Latent attention</b> (used with MLA)"},
    {.label = "Q LoRA rank",
     .tip = "Compressed query width; 0: queries projected directly from the hidden state.",
     .value = model<&ModelSpec::mla, &core::MlaSpec::qLoraRank>(),
     .range = {0, 1 << 20}},
    {.label = "KV LoRA rank",
     .tip = "Compressed key/value width: the latent the KV projections start from.",
     .value = model<&ModelSpec::mla, &core::MlaSpec::kvLoraRank>(),
     .range = {1, 1 << 20}},
    {.label = "QK head (no rope)",
     .tip = "Per-head query/key width without rotary embedding.",
     .value = model<&ModelSpec::mla, &core::MlaSpec::qkNopeHeadDim>(),
     .range = {1, 4096}},
    {.label = "QK head (rope)",
     .tip = "Per-head rotary part; the rotary key is shared by all heads.",
     .value = model<&ModelSpec::mla, &core::MlaSpec::qkRopeHeadDim>(),
     .range = {0, 4096}},
    {.label = "V head",
     .tip = "Per-head value width.",
     .value = model<&ModelSpec::mla, &core::MlaSpec::vHeadDim>(),
     .range = {1, 4096}},
    {.kind = Kind::Heading, .label = "<b>Mixture of experts</b> (0 experts: dense)"},
    {.label = "E&xperts",
     .tip = "Routed experts per MoE layer; 0 makes the model dense.",
     .value = model<&ModelSpec::moe, &core::MoeSpec::experts>(),
     .range = {0, 4096}},
    {.label = "&Top-k",
     .tip = "Experts each token is routed to.",
     .value = model<&ModelSpec::moe, &core::MoeSpec::topK>(),
     .range = {0, 256}},
    {.label = "Expert FFN",
     .tip = "MLP hidden size of one expert.",
     .value = model<&ModelSpec::moe, &core::MoeSpec::expertFfnHidden>(),
     .range = {0, 1 << 22}},
    {.label = "Shared experts",
     .tip = "Always-active experts per MoE layer.",
     .value = model<&ModelSpec::moe, &core::MoeSpec::sharedExperts>(),
     .range = {0, 64}},
    {.label = "MoE layers",
     .tip = "How many layers are MoE layers (0: all of them).",
     .value = model<&ModelSpec::moe, &core::MoeSpec::moeLayers>(),
     .range = {0, 1024}},
    {.kind = Kind::Double,
     .label = "Capacity factor",
     .tip = "Expert capacity factor: tokens an expert accepts, relative to an even split.",
     .value = model<&ModelSpec::moe, &core::MoeSpec::capacityFactor>(),
     .range = {0.1, 16.0, 2},
     .shown = {1.0}},
    {.label = "Expert groups",
     .tip =
         "Group-limited routing (DeepSeek's n_group): the experts form this many equal groups; 0: no groups.",
     .value = model<&ModelSpec::moe, &core::MoeSpec::groups>(),
     .range = {0, 4096}},
    {.label = "Groups per token",
     .tip = "How many of the groups one token's experts may come from (DeepSeek's topk_group; DeepSeek-V3: 4 "
            "of 8, so a token reaches at most 4 nodes).",
     .value = model<&ModelSpec::moe, &core::MoeSpec::groupLimit>(),
     .range = {0, 4096}},
};

} // namespace

ModelEditor::ModelEditor(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_preset(new ModelPresetBox(this)), m_summary(new QLabel(this)),
      m_section(new CollapsibleSection(tr("Architecture"), this)),
      m_binder(new FormBinder(doc, mergeIdFor(EditKind::Model), this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    addPresetChoice(layout);
    m_summary->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("modelSummary"));
    m_summary->setToolTip(tr("Parameter count computed by the planner for this architecture."));
    layout->addWidget(m_summary);

    auto* body = new QWidget(m_section);
    auto* form = makeForm(body, 16);
    m_binder->addText(
        form, tr("&Name"), tr("The model's display name (saved in the scenario file)."),
        [](const Scenario& s) { return s.model.name; },
        [](Scenario& s, const std::string& v) { s.model.name = v; });
    m_binder->addFields(form, kArchitectureFields);
    m_section->setContent(body);
    layout->addWidget(m_section);

    connect(m_doc, &ScenarioDocument::scenarioChanged, this, &ModelEditor::refresh);
    connect(m_doc, &ScenarioDocument::planChanged, this, &ModelEditor::refreshSummary);
    refresh();
    refreshSummary();
}

void ModelEditor::addPresetChoice(QVBoxLayout* layout) {
    auto* top = new QFormLayout;
    top->setContentsMargins(0, 0, 0, 0);
    auto* presetLabel = new QLabel(tr("&Model"), this);
    presetLabel->setBuddy(m_preset);
    m_preset->setObjectName(QStringLiteral("modelPreset"));
    m_preset->setToolTip(
        tr("A published model architecture, at its published sequence length; editing an architecture field "
           "below makes it a custom model (the sequence length does not)."));
    m_preset->setAccessibleName(tr("Model preset"));
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(14);
    fillPresetList();
    top->addRow(presetLabel, m_preset);
    layout->addLayout(top);
    connect(m_preset, &QComboBox::activated, this, [this](int index) {
        const QString id = m_preset->itemData(index).toString();
        const core::ModelPreset* p = id.isEmpty() ? nullptr : core::findModelPreset(id.toStdString());
        if (!p)
            return;
        Scenario next = m_doc->scenario();
        next.model = p->model;
        m_doc->edit(next, tr("Choose model %1").arg(QString::fromStdString(p->model.name)));
    });
}

// Dense models, then mixtures of experts, each under a heading that cannot be chosen and by size.
void ModelEditor::fillPresetList() {
    auto* items = qobject_cast<QStandardItemModel*>(m_preset->model());
    for (const core::ModelPresetGroup& group : core::modelPresetGroups()) {
        m_preset->addItem(qs(group.title), QString());
        if (QStandardItem* heading = items ? items->item(m_preset->count() - 1) : nullptr) {
            heading->setFlags(heading->flags() & ~(Qt::ItemIsSelectable | Qt::ItemIsEnabled));
            QFont bold = heading->font();
            bold.setBold(true);
            heading->setFont(bold);
        }
        for (const core::ModelPreset* p : group.presets)
            m_preset->addItem(qs(core::modelPresetLabel(*p)), QString::fromStdString(p->id));
    }
    m_preset->addItem(tr("Custom"), QString());
}

void ModelEditor::refresh() {
    // The preset whose architecture this is: training it at another sequence length keeps its name.
    const core::ModelSpec& m = m_doc->scenario().model;
    int index = m_preset->count() - 1; // Custom
    for (int i = 0; i < m_preset->count() - 1; ++i) {
        const core::ModelPreset* p = core::findModelPreset(m_preset->itemData(i).toString().toStdString());
        if (!p)
            continue;
        core::ModelSpec preset = p->model;
        preset.seqLen = m.seqLen;
        if (preset == m) {
            index = i;
            break;
        }
    }
    if (m_preset->currentIndex() != index) {
        const QSignalBlocker block(m_preset);
        m_preset->setCurrentIndex(index);
    }
}

void ModelEditor::refreshSummary() {
    const core::ModelSpec& m = m_doc->scenario().model;
    const core::Plan& plan = m_doc->plan();
    QString params;
    if (plan.params.total > 0) {
        // The parameter counts as the command line prints them.
        params = tr("%1 parameters").arg(qs(core::fmt::count(plan.params.total)));
        if (m.isMoe())
            params += tr(" (%1 active)").arg(qs(core::fmt::count(plan.params.active)));
        params += QStringLiteral(" · ");
    }
    const QString text = params + tr("%1 layers · h %2 · %3 heads (%4 KV) · seq %5")
                                      .arg(m.layers)
                                      .arg(formatCount(m.hidden))
                                      .arg(m.heads)
                                      .arg(m.kvHeads)
                                      .arg(formatCount(m.seqLen));
    m_summary->setText(text);
    m_section->setSummary(QString());
}

} // namespace lp::ui
