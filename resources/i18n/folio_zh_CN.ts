<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Folio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answers questions about your own documents, offline, with page citations.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing leaves this computer: no account, no network, no cloud model.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AnswerView</name>
    <message>
        <source>Continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the model go on from where the answer was cut off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thought for {0} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} of {1} statements are supported by your documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answered from your documents · {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Partly answered: check the underlined statements · {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not answered: nothing here is both in your documents and about your question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your documents do not answer this question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This answer was cut off: it reached the maximum answer length.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped: this answer is incomplete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer failed: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not one of the passages given to the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passages given to the model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p. {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pp. {0}–{1}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AppController</name>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening the library…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the embedding model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The library could not be opened.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The embedding model could not be loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model could not be loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening the re-indexed library…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BudgetDialog</name>
    <message>
        <source>System prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reserved for the answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Part</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How the context window was spent for this answer:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BugDialog</name>
    <message>
        <source>Folio: unexpected error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something went wrong inside Folio. This is a bug; please report it with the details below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChatController</name>
    <message>
        <source>the model returned no answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer failed: {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChatList</name>
    <message>
        <source>New chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a new chat (Ctrl+N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Untitled chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n message(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Core</name>
    <message>
        <source>the question is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no chat with id {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no room left in the context to continue this answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prompt threads must be 0 (automatic) to 256</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context size must be at least 512 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context size must be at most 1048576 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>threads must be 0 (automatic) or more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU layers must be -1 (all), 0 or more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>temperature must be between 0 and 5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>top-k must be 0 (off) or more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>top-p must be in (0, 1]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>min-p must be in [0, 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>repeat penalty must be between 0.5 and 2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max answer tokens must be at least 1 and below the context size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>passages per answer must be between 1 and 50</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT target must be 0 (off) or more seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grounding threshold must be between -1 and 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>citation mode must be one of {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>answer from must be one of {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>figures from must be one of {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>embedding precision must be one of {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>language must be one of {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chunk size must be between 32 and 512 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chunk overlap must be below half the chunk size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a server needs the name of its model (one of its /v1/models)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>setting {0!r} must be a {1}, not {2!r}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server address must start with http:// or https://, not {0!r}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server address must not hold a user name or password: set the API key instead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server address must not hold a query or fragment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read settings file {0}: {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>settings file {0} does not hold a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot load the model {0}: {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model file not found: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model path is not a file: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read the model file {0}: {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a GGUF model file: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server does not show its chat template: the switch is sent as enable_thinking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model has no chat template; Folio uses ChatML, which has no thinking switch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the chat template has an enable_thinking switch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model always thinks (no enable_thinking switch); its thinking is shown apart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model&apos;s chat template has no thinking switch (enable_thinking)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>file not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no text (empty file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no text layer (scanned?); turn on OCR in Settings to read scanned pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no text layer, and OCR found no legible text on its pages (blank or pictures only?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max answer tokens ({0}) must be below the context size ({1})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the question is too long: {0} prompt tokens plus {1} answer tokens exceed the context of {2} tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the number of results must be at least 1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ErrorReporter</name>
    <message>
        <source>Folio</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Folio</name>
    <message>
        <source>Your settings could not be read, so the defaults are used: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No font for Chinese is installed, so Chinese text cannot be shown. Install one with: {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FoundLine</name>
    <message>
        <source>Where the answer was found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p. {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pp. {0}–{1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Found on {0} {1}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FoundModelsView</name>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Searching needs the running app.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for models on this computer…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The search failed: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No LM Studio, GPT4All, Jan or Ollama models folder on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} chat models in {1}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} files left out (hover for why).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes, switchable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>always</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder with GGUF models</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>IngestController</name>
    <message>
        <source>The library is still opening; try again in a moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The library is being re-indexed; add documents when it is done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n document(s) indexed</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>already indexed: {0}{1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) failed</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ingestion cancelled</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>IngestPanel</name>
    <message>
        <source>Indexing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>already indexed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0}/{1} · OCR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>file {0} of {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} pages done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading page {0} by OCR (a few seconds a page)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about {0} left</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n more batch(es) queued</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LibraryModel</name>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chunks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>indexed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 page read by OCR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} pages read by OCR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} sections</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0}
{1} · {2} chunks · {3:.1f} MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} of them had no text layer and were read by OCR</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LibraryPanel</name>
    <message>
        <source>Add documents…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add PDF (scanned too), Word, EPUB, web page, text or Markdown files (Ctrl+O)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-index</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove this failure from the list</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Folio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chats</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add documents…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stop answering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Folio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The library was re-indexed; the old one is kept in {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} · ctx {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove “{0}” from the library? The file itself is not deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop to add to the library</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MarkdownView</name>
    <message>
        <source>Found by Folio: the model did not cite this sentence; passage [{0}] supports it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cited by the model, and passage [{0}] supports the sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not found in the cited passages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the passages, but not about what you asked</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PdfViewer</name>
    <message>
        <source>◀ Previous page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next page ▶</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} — Folio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0}, p. {1} — the passage as indexed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0}, page {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0}, page {1} (read by OCR)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>section {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} — {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} / {1}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QuestionBox</name>
    <message>
        <source>Ask a question about your documents…  (Enter sends, Shift+Enter new line)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the model reason before answering (this question only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop generating (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the question (Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loaded model cannot switch thinking on or off.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Readout</name>
    <message>
        <source>complete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cut off (max tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>counts from the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rate and counts from the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens counted as streamed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retrieve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>assemble</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prefill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parse</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReindexController</name>
    <message>
        <source>Re-index stopped: {0} could not be read again (moved or deleted?). The library is unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Re-indexed %n document(s); opening the re-indexed library…</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Re-index failed; the library is unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-index cancelled; the library is unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReindexNotice</name>
    <message>
        <source>Re-index now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This library was indexed with an English-only embedder ({0}): questions in one language will not find pages in the other. Re-index it with {1} (about {2} min for {3} pages; the window stays usable).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, about {0} min left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-indexing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-indexing the library: every document is read again.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ServerBox</name>
    <message>
        <source>List models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional; empty keeps the key stored before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kept in the system keyring, or a file only you can read; never in the settings file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget the stored key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model on the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking {0} for its models…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The address changed: press List models again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Listed by the server: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server lists no models.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model list: {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default ({0})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — fast</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another GGUF file (found below, or Browse…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>automatic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free: markers checked after the answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Constrained: only markers of the given passages can be written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read scanned pages with OCR (Chinese and English)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF pages without a text layer are recognised on this computer; a few seconds a page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The passages found (most accurate)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the sentences Folio found (first word about 5× sooner)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The passages, and the sentences Folio found again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the model reads. Only the sentences shown under &quot;Found on …&quot;: a much shorter prompt, but with the bundled model fewer English questions were answered right (make eval, README).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the model only the sentences that matter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each passage reaches the model cut to the sentences closest to the question and their neighbours: a shorter prompt and a sooner first word. Citations still open the whole passage.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model file (GGUF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Found on this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answers come from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context size (tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max answer tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passages per answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model reads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Citations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new embedding model applies to a new library: documents are indexed with one model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scanned PDFs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system&apos;s language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The window and the folio command; the chat stays as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interface</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model loaded yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>supports thinking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no thinking switch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>thinking switch sent to the server (its template is not shown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loaded: {0} · context {1} tokens (trained {2}) · {3}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a GGUF model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose an embedding model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not saved: {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StartupProblemBox</name>
    <message>
        <source>Folio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The library could not be opened: {0}

Its files were left as they are. You can open another library folder, or quit and restore this one from a backup.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open another library…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The chat model could not be loaded: {0}

Choose another model file (GGUF).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose another model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The search index was repaired: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a library folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a chat model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Transcript</name>
    <message>
        <source>&lt;h2&gt;Ask your documents&lt;/h2&gt;&lt;p&gt;Drop files (or whole folders) anywhere on this window, or use &lt;b&gt;Add documents…&lt;/b&gt; (Ctrl+O). Then ask a question below.&lt;/p&gt;&lt;p&gt;Folio reads %1 files.&lt;/p&gt;&lt;p&gt;Answers cite their sources as [1], [2]… — click one to open the page.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
