#include "ui/scenario/ModelEditor.h"

#include "core/io/Presets.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/scenario/FormBinder.h"
#include "ui/widgets/CollapsibleSection.h"
#include "ui/widgets/Format.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lp::ui {

using core::Scenario;

ModelEditor::ModelEditor(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_preset(new QComboBox(this)), m_summary(new QLabel(this)),
      m_section(new CollapsibleSection(tr("Architecture"), this)),
      m_binder(new FormBinder(doc, mergeIdFor(EditKind::Model), this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QFormLayout;
    top->setContentsMargins(0, 0, 0, 0);
    auto* presetLabel = new QLabel(tr("&Model"), this);
    presetLabel->setBuddy(m_preset);
    m_preset->setObjectName(QStringLiteral("modelPreset"));
    m_preset->setToolTip(
        tr("A published model architecture, at its published sequence length; editing an "
           "architecture field below makes it a custom model (the sequence length does not)."));
    m_preset->setAccessibleName(tr("Model preset"));
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(14);
    for (const core::ModelPreset& p : core::modelPresets())
        m_preset->addItem(QString::fromStdString(p.model.name), QString::fromStdString(p.id));
    m_preset->addItem(tr("Custom"), QString());
    top->addRow(presetLabel, m_preset);
    layout->addLayout(top);
    m_summary->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("modelSummary"));
    m_summary->setToolTip(tr("Parameter count computed by the planner for this architecture."));
    layout->addWidget(m_summary);

    connect(m_preset, &QComboBox::activated, this, [this](int index) {
        const QString id = m_preset->itemData(index).toString();
        const core::ModelPreset* p = id.isEmpty() ? nullptr : core::findModelPreset(id.toStdString());
        if (!p)
            return;
        Scenario next = m_doc->scenario();
        next.model = p->model;
        m_doc->edit(next, tr("Choose model %1").arg(QString::fromStdString(p->model.name)));
    });

    auto* body = new QWidget(m_section);
    auto* form = new QFormLayout(body);
    form->setContentsMargins(16, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    FormBinder& b = *m_binder;
    b.addText(
        form, tr("&Name"), tr("The model's display name (saved in the scenario file)."),
        [](const Scenario& s) { return s.model.name; },
        [](Scenario& s, const std::string& v) { s.model.name = v; });
    b.addInt(
        form, tr("&Layers"), tr("Decoder layers (transformer blocks) L."), 1, 1024,
        [](const Scenario& s) { return s.model.layers; }, [](Scenario& s, int v) { s.model.layers = v; });
    b.addInt(
        form, tr("&Hidden size"), tr("Hidden size h: the width of the residual stream."), 1, 1 << 20,
        [](const Scenario& s) { return s.model.hidden; }, [](Scenario& s, int v) { s.model.hidden = v; });
    b.addInt(
        form, tr("Attention &heads"), tr("Query heads a; the head size is h / a."), 1, 4096,
        [](const Scenario& s) { return s.model.heads; }, [](Scenario& s, int v) { s.model.heads = v; });
    b.addInt(
        form, tr("&KV heads"), tr("Key/value heads k (fewer than a with grouped-query attention)."), 1, 4096,
        [](const Scenario& s) { return s.model.kvHeads; }, [](Scenario& s, int v) { s.model.kvHeads = v; });
    QSpinBox* headSize = b.addInt(
        form, tr("Head si&ze"),
        tr("Per-head width; 0 means hidden / heads (set it where Q is wider than h, as in Qwen3)."), 0, 4096,
        [](const Scenario& s) { return s.model.headSize; }, [](Scenario& s, int v) { s.model.headSize = v; });
    headSize->setObjectName(QStringLiteral("headSize"));
    headSize->setSpecialValueText(tr("h / heads")); // 0: derived from the hidden size and the heads
    b.addInt(
        form, tr("&FFN hidden"), tr("MLP hidden size f of a dense layer."), 1, 1 << 22,
        [](const Scenario& s) { return s.model.ffnHidden; },
        [](Scenario& s, int v) { s.model.ffnHidden = v; });
    b.addInt(
        form, tr("&Vocabulary"), tr("Vocabulary size V (embedding and output head rows)."), 1, 1 << 24,
        [](const Scenario& s) { return s.model.vocab; }, [](Scenario& s, int v) { s.model.vocab = v; });
    b.addInt(
        form, tr("&Sequence length"), tr("Training sequence length s in tokens."), 1, 1 << 24,
        [](const Scenario& s) { return s.model.seqLen; }, [](Scenario& s, int v) { s.model.seqLen = v; });
    b.addChoice(
        form, tr("ML&P"),
        tr("Gated MLPs (SwiGLU, GeGLU) have three matrices, plain ones (GELU, ReLU, Nemotron's "
           "squared ReLU) two."),
        {{tr("SwiGLU (gated)"), static_cast<int>(core::MlpKind::SwiGlu)},
         {tr("GELU / ReLU (plain)"), static_cast<int>(core::MlpKind::Gelu)}},
        [](const Scenario& s) { return static_cast<int>(s.model.mlp); },
        [](Scenario& s, int v) { s.model.mlp = static_cast<core::MlpKind>(v); });
    b.addChoice(
        form, tr("N&orm"), tr("RMSNorm has one weight vector per norm, LayerNorm two."),
        {{tr("RMSNorm"), static_cast<int>(core::NormKind::RmsNorm)},
         {tr("LayerNorm"), static_cast<int>(core::NormKind::LayerNorm)}},
        [](const Scenario& s) { return static_cast<int>(s.model.norm); },
        [](Scenario& s, int v) { s.model.norm = static_cast<core::NormKind>(v); });
    b.addBool(
        form, tr("Tied embeddings"), tr("The output head shares the input embedding's weights."),
        [](const Scenario& s) { return s.model.tiedEmbeddings; },
        [](Scenario& s, bool v) { s.model.tiedEmbeddings = v; });
    b.addBool(
        form, tr("Linear biases"), tr("Linear layers carry bias vectors (GPT-2/3 yes, Llama no)."),
        [](const Scenario& s) { return s.model.biases; }, [](Scenario& s, bool v) { s.model.biases = v; });
    b.addBool(
        form, tr("Learned positions"), tr("Learned absolute position embeddings (GPT-2/3) instead of RoPE."),
        [](const Scenario& s) { return s.model.learnedPositions; },
        [](Scenario& s, bool v) { s.model.learnedPositions = v; });
    b.addBool(
        form, tr("Dropout"), tr("Dropout during training stores masks in the activations (GPT-2/3)."),
        [](const Scenario& s) { return s.model.dropout; }, [](Scenario& s, bool v) { s.model.dropout = v; });
    b.addChoice(
        form, tr("A&ttention"),
        tr("Multi-head / grouped-query attention, or DeepSeek's multi-head latent attention (MLA)."),
        {{tr("Multi-head / GQA"), static_cast<int>(core::AttentionKind::Standard)},
         {tr("Latent (MLA)"), static_cast<int>(core::AttentionKind::Mla)}},
        [](const Scenario& s) { return static_cast<int>(s.model.attention); },
        [](Scenario& s, int v) { s.model.attention = static_cast<core::AttentionKind>(v); });
    auto* mlaTitle = new QLabel(tr("<b>Latent attention</b> (used with MLA)"), body);
    form->addRow(mlaTitle);
    b.addInt(
        form, tr("Q LoRA rank"),
        tr("Compressed query width; 0: queries projected directly from the hidden state."), 0, 1 << 20,
        [](const Scenario& s) { return s.model.mla.qLoraRank; },
        [](Scenario& s, int v) { s.model.mla.qLoraRank = v; });
    b.addInt(
        form, tr("KV LoRA rank"), tr("Compressed key/value width: the latent the KV projections start from."),
        1, 1 << 20, [](const Scenario& s) { return s.model.mla.kvLoraRank; },
        [](Scenario& s, int v) { s.model.mla.kvLoraRank = v; });
    b.addInt(
        form, tr("QK head (no rope)"), tr("Per-head query/key width without rotary embedding."), 1, 4096,
        [](const Scenario& s) { return s.model.mla.qkNopeHeadDim; },
        [](Scenario& s, int v) { s.model.mla.qkNopeHeadDim = v; });
    b.addInt(
        form, tr("QK head (rope)"), tr("Per-head rotary part; the rotary key is shared by all heads."), 0,
        4096, [](const Scenario& s) { return s.model.mla.qkRopeHeadDim; },
        [](Scenario& s, int v) { s.model.mla.qkRopeHeadDim = v; });
    b.addInt(
        form, tr("V head"), tr("Per-head value width."), 1, 4096,
        [](const Scenario& s) { return s.model.mla.vHeadDim; },
        [](Scenario& s, int v) { s.model.mla.vHeadDim = v; });
    auto* moeTitle = new QLabel(tr("<b>Mixture of experts</b> (0 experts: dense)"), body);
    form->addRow(moeTitle);
    b.addInt(
        form, tr("E&xperts"), tr("Routed experts per MoE layer; 0 makes the model dense."), 0, 4096,
        [](const Scenario& s) { return s.model.moe.experts; },
        [](Scenario& s, int v) { s.model.moe.experts = v; });
    b.addInt(
        form, tr("&Top-k"), tr("Experts each token is routed to."), 0, 256,
        [](const Scenario& s) { return s.model.moe.topK; }, [](Scenario& s, int v) { s.model.moe.topK = v; });
    b.addInt(
        form, tr("Expert FFN"), tr("MLP hidden size of one expert."), 0, 1 << 22,
        [](const Scenario& s) { return s.model.moe.expertFfnHidden; },
        [](Scenario& s, int v) { s.model.moe.expertFfnHidden = v; });
    b.addInt(
        form, tr("Shared experts"), tr("Always-active experts per MoE layer."), 0, 64,
        [](const Scenario& s) { return s.model.moe.sharedExperts; },
        [](Scenario& s, int v) { s.model.moe.sharedExperts = v; });
    b.addInt(
        form, tr("MoE layers"), tr("How many layers are MoE layers (0: all of them)."), 0, 1024,
        [](const Scenario& s) { return s.model.moe.moeLayers; },
        [](Scenario& s, int v) { s.model.moe.moeLayers = v; });
    b.addDouble(
        form, tr("Capacity factor"),
        tr("Expert capacity factor: tokens an expert accepts, relative to an even split."), 0.1, 16.0, 2, 1.0,
        [](const Scenario& s) { return s.model.moe.capacityFactor; },
        [](Scenario& s, double v) { s.model.moe.capacityFactor = v; });
    b.addInt(
        form, tr("Expert groups"),
        tr("Group-limited routing (DeepSeek's n_group): the experts form this many equal groups; 0: no "
           "groups."),
        0, 4096, [](const Scenario& s) { return s.model.moe.groups; },
        [](Scenario& s, int v) { s.model.moe.groups = v; });
    b.addInt(
        form, tr("Groups per token"),
        tr("How many of the groups one token's experts may come from (DeepSeek's topk_group; DeepSeek-V3: 4 "
           "of 8, "
           "so a token reaches at most 4 nodes)."),
        0, 4096, [](const Scenario& s) { return s.model.moe.groupLimit; },
        [](Scenario& s, int v) { s.model.moe.groupLimit = v; });
    m_section->setContent(body);
    layout->addWidget(m_section);

    connect(m_doc, &ScenarioDocument::scenarioChanged, this, &ModelEditor::refresh);
    connect(m_doc, &ScenarioDocument::planChanged, this, &ModelEditor::refreshSummary);
    refresh();
    refreshSummary();
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
        params = tr("%1 parameters").arg(formatLarge(plan.params.total));
        if (m.isMoe())
            params += tr(" (%1 active)").arg(formatLarge(plan.params.active));
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
