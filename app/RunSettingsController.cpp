#include "RunSettingsController.h"

#include "asc2/Driver/Pipeline.h"

#include <QComboBox>
#include <QLabel>
#include <QStandardItemModel>
#include <QToolBar>

QStringList RunSettingsController::platforms()
{
    QStringList out;
    for (const std::string &p : asc2::availablePlatforms())
        out << QString::fromStdString(p);
    if (out.isEmpty())
        out << QStringLiteral("Ascend910B1");
    return out;
}

RunSettingsController::RunSettingsController(QToolBar *toolBar, QObject *parent)
    : QObject(parent)
{
    const auto labelled = [&](const QString &text, QComboBox *box, const QString &toolTip) {
        auto *label = new QLabel(text, toolBar);
        label->setBuddy(box);
        label->setContentsMargins(6, 0, 2, 0);
        box->setToolTip(toolTip);
        toolBar->addWidget(label);
        toolBar->addWidget(box);
    };

    m_platformBox = new QComboBox(toolBar);
    m_platformBox->setObjectName(QStringLiteral("platform"));
    m_platformBox->addItems(platforms());
    // The target the application was started with: the embedded interpreter
    // writes each run's ASC2_PLATFORM into the process environment, which a
    // window opened later must not take for the user's choice.
    static const QString envPlatform = qEnvironmentVariable("ASC2_PLATFORM");
    m_platformBox->setCurrentText(envPlatform.isEmpty() ? QStringLiteral("Ascend910B1") : envPlatform);
    labelled(tr("&Target:"), m_platformBox, tr("Platform the kernels are compiled and simulated for (ASC2_PLATFORM)"));

    m_backendBox = new QComboBox(toolBar);
    m_backendBox->setObjectName(QStringLiteral("backend"));
    m_backendBox->addItem(QStringLiteral("Model"));
    m_backendBox->addItem(QStringLiteral("NPU"));
    // The NPU backend needs the CANN toolkit and a device; say why it is off.
    if (auto *model = qobject_cast<QStandardItemModel *>(m_backendBox->model())) {
        QStandardItem *npu = model->item(1);
        npu->setEnabled(false);
        npu->setToolTip(tr("no CANN toolkit"));
        npu->setData(tr("no CANN toolkit"), Qt::ToolTipRole);
    }
    labelled(tr("&Backend:"), m_backendBox, tr("Where kernels run: Model is the simulator (ASC2_BACKEND)"));

    m_insertSyncBox = new QComboBox(toolBar);
    m_insertSyncBox->setObjectName(QStringLiteral("insertSync"));
    m_insertSyncBox->addItem(tr("as in kernel"), QString());
    m_insertSyncBox->addItem(tr("on"), QStringLiteral("1"));
    m_insertSyncBox->addItem(tr("off"), QStringLiteral("0"));
    labelled(tr("insert_&sync:"), m_insertSyncBox,
             tr("Override the asc2.jit insert_sync option of every kernel (ASC2_JIT_INSERT_SYNC)"));

    m_reuseAllocBox = new QComboBox(toolBar);
    m_reuseAllocBox->setObjectName(QStringLiteral("reuseAlloc"));
    m_reuseAllocBox->addItem(tr("as in kernel"), QString());
    for (const char *level : {"0", "1", "2"})
        m_reuseAllocBox->addItem(QString::fromLatin1(level), QString::fromLatin1(level));
    labelled(tr("reuse_&alloc:"), m_reuseAllocBox,
             tr("Override the asc2.jit reuse_alloc option of every kernel (ASC2_JIT_REUSE_ALLOC)"));

    for (QComboBox *box : {m_platformBox, m_backendBox, m_insertSyncBox, m_reuseAllocBox})
        connect(box, &QComboBox::currentIndexChanged, this, &RunSettingsController::changed);
}

RunSettings RunSettingsController::settings() const
{
    RunSettings s;
    s.platform = m_platformBox->currentText();
    s.backend = m_backendBox->currentText();
    s.insertSync = m_insertSyncBox->currentData().toString();
    s.reuseAlloc = m_reuseAllocBox->currentData().toString();
    return s;
}

void RunSettingsController::setSettings(const RunSettings &s)
{
    if (m_platformBox->findText(s.platform) < 0 && !s.platform.isEmpty())
        m_platformBox->addItem(s.platform);
    m_platformBox->setCurrentText(s.platform);
    if (m_backendBox->findText(s.backend, Qt::MatchFixedString) >= 0)
        m_backendBox->setCurrentIndex(m_backendBox->findText(s.backend, Qt::MatchFixedString));
    m_insertSyncBox->setCurrentIndex(qMax(0, m_insertSyncBox->findData(s.insertSync)));
    m_reuseAllocBox->setCurrentIndex(qMax(0, m_reuseAllocBox->findData(s.reuseAlloc)));
}

void RunSettingsController::adoptEnvironment(const QMap<QString, QString> &environment)
{
    RunSettings s = settings();
    if (environment.contains(QStringLiteral("ASC2_PLATFORM")))
        s.platform = environment.value(QStringLiteral("ASC2_PLATFORM"));
    if (environment.contains(QStringLiteral("ASC2_BACKEND")))
        s.backend = environment.value(QStringLiteral("ASC2_BACKEND"));
    const QSignalBlocker b1(m_platformBox);
    const QSignalBlocker b2(m_backendBox);
    setSettings(s);
}
