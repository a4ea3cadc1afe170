export namespace agents {
	
	export class ChildInfo {
	    id: string;
	    agent: string;
	    task: string;
	    parentCallId: string;
	    background?: boolean;
	    status: string;
	    answer?: string;
	    error?: string;
	    blocked?: protocol.Blocked;
	    toolCalls: number;
	    usage: protocol.Usage;
	    items?: protocol.TranscriptItem[];
	
	    static createFrom(source: any = {}) {
	        return new ChildInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.agent = source["agent"];
	        this.task = source["task"];
	        this.parentCallId = source["parentCallId"];
	        this.background = source["background"];
	        this.status = source["status"];
	        this.answer = source["answer"];
	        this.error = source["error"];
	        this.blocked = this.convertValues(source["blocked"], protocol.Blocked);
	        this.toolCalls = source["toolCalls"];
	        this.usage = this.convertValues(source["usage"], protocol.Usage);
	        this.items = this.convertValues(source["items"], protocol.TranscriptItem);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Definition {
	    name: string;
	    description: string;
	    tools?: string[];
	    readOnly?: boolean;
	    model?: string;
	    maxSteps?: number;
	    prompt?: string;
	    source: string;
	
	    static createFrom(source: any = {}) {
	        return new Definition(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.tools = source["tools"];
	        this.readOnly = source["readOnly"];
	        this.model = source["model"];
	        this.maxSteps = source["maxSteps"];
	        this.prompt = source["prompt"];
	        this.source = source["source"];
	    }
	}
	export class PendingFile {
	    path: string;
	    definition?: Definition;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new PendingFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.definition = this.convertValues(source["definition"], Definition);
	        this.error = source["error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Pending {
	    hash: string;
	    files: PendingFile[];
	
	    static createFrom(source: any = {}) {
	        return new Pending(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hash = source["hash"];
	        this.files = this.convertValues(source["files"], PendingFile);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace approval {
	
	export class AuditEntry {
	    // Go type: time
	    time: any;
	    session: string;
	    callId: string;
	    tool: string;
	    agent?: string;
	    summary?: string;
	    mode: string;
	    by: string;
	    decision: string;
	    ruleIds?: string[];
	    standing?: protocol.StandingRef[];
	
	    static createFrom(source: any = {}) {
	        return new AuditEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.time = this.convertValues(source["time"], null);
	        this.session = source["session"];
	        this.callId = source["callId"];
	        this.tool = source["tool"];
	        this.agent = source["agent"];
	        this.summary = source["summary"];
	        this.mode = source["mode"];
	        this.by = source["by"];
	        this.decision = source["decision"];
	        this.ruleIds = source["ruleIds"];
	        this.standing = this.convertValues(source["standing"], protocol.StandingRef);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class StandingRule {
	    id?: string;
	    tool: string;
	    files?: string[];
	    commands?: string[][];
	    action?: string;
	    cwd?: string;
	    domain?: string;
	    summary: string;
	    agent?: string;
	    decision: string;
	    reason?: string;
	    layer: string;
	    file?: string;
	    line?: number;
	    match?: string[];
	    notMatch?: string[];
	
	    static createFrom(source: any = {}) {
	        return new StandingRule(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.tool = source["tool"];
	        this.files = source["files"];
	        this.commands = source["commands"];
	        this.action = source["action"];
	        this.cwd = source["cwd"];
	        this.domain = source["domain"];
	        this.summary = source["summary"];
	        this.agent = source["agent"];
	        this.decision = source["decision"];
	        this.reason = source["reason"];
	        this.layer = source["layer"];
	        this.file = source["file"];
	        this.line = source["line"];
	        this.match = source["match"];
	        this.notMatch = source["notMatch"];
	    }
	}
	export class Decided {
	    decision: string;
	    rules?: StandingRule[];
	    why: string;
	
	    static createFrom(source: any = {}) {
	        return new Decided(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.decision = source["decision"];
	        this.rules = this.convertValues(source["rules"], StandingRule);
	        this.why = source["why"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace gitview {
	
	export class Hunk {
	    header: string;
	    id: string;
	
	    static createFrom(source: any = {}) {
	        return new Hunk(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.header = source["header"];
	        this.id = source["id"];
	    }
	}
	export class FileDiff {
	    path: string;
	    status: string;
	    binary?: boolean;
	    added: number;
	    removed: number;
	    hunks: Hunk[];
	    diff: string;
	
	    static createFrom(source: any = {}) {
	        return new FileDiff(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.status = source["status"];
	        this.binary = source["binary"];
	        this.added = source["added"];
	        this.removed = source["removed"];
	        this.hunks = this.convertValues(source["hunks"], Hunk);
	        this.diff = source["diff"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Against {
	    base: string;
	    commits: string[];
	    files: FileDiff[];
	
	    static createFrom(source: any = {}) {
	        return new Against(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.base = source["base"];
	        this.commits = source["commits"];
	        this.files = this.convertValues(source["files"], FileDiff);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Changes {
	    branch: string;
	    head: string;
	    upstream?: string;
	    ahead: number;
	    behind: number;
	    staged: FileDiff[];
	    unstaged: FileDiff[];
	    untracked: string[];
	    safe: boolean;
	    top: string;
	    against?: Against;
	
	    static createFrom(source: any = {}) {
	        return new Changes(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.branch = source["branch"];
	        this.head = source["head"];
	        this.upstream = source["upstream"];
	        this.ahead = source["ahead"];
	        this.behind = source["behind"];
	        this.staged = this.convertValues(source["staged"], FileDiff);
	        this.unstaged = this.convertValues(source["unstaged"], FileDiff);
	        this.untracked = source["untracked"];
	        this.safe = source["safe"];
	        this.top = source["top"];
	        this.against = this.convertValues(source["against"], Against);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Commit {
	    hash: string;
	    subject: string;
	    output?: string;
	
	    static createFrom(source: any = {}) {
	        return new Commit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hash = source["hash"];
	        this.subject = source["subject"];
	        this.output = source["output"];
	    }
	}
	export class Ending {
	    commits: string[];
	    uncommitted: string[];
	
	    static createFrom(source: any = {}) {
	        return new Ending(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.commits = source["commits"];
	        this.uncommitted = source["uncommitted"];
	    }
	}
	
	
	export class Settings {
	    trusted: boolean;
	    files: string[];
	    hash: string;
	    refused?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.trusted = source["trusted"];
	        this.files = source["files"];
	        this.hash = source["hash"];
	        this.refused = source["refused"];
	    }
	}
	export class View {
	    notRepo?: boolean;
	    changes: Changes;
	    settings: Settings;
	    lastMessage: string;
	    gone?: string;
	
	    static createFrom(source: any = {}) {
	        return new View(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.notRepo = source["notRepo"];
	        this.changes = this.convertValues(source["changes"], Changes);
	        this.settings = this.convertValues(source["settings"], Settings);
	        this.lastMessage = source["lastMessage"];
	        this.gone = source["gone"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Worktrees {
	    main: string;
	    current: string;
	    list: worktree.Worktree[];
	    copy: string[];
	
	    static createFrom(source: any = {}) {
	        return new Worktrees(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.main = source["main"];
	        this.current = source["current"];
	        this.list = this.convertValues(source["list"], worktree.Worktree);
	        this.copy = source["copy"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace gui {
	
	export class AppState {
	    version: string;
	    workspace: string;
	    workspaceName: string;
	    approvalMode: string;
	    needsSetup: boolean;
	    model: string;
	    theme: string;
	    unconfined?: string;
	    sandboxOff?: boolean;
	    panelWidths?: {[key: string]: number};
	
	    static createFrom(source: any = {}) {
	        return new AppState(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.workspace = source["workspace"];
	        this.workspaceName = source["workspaceName"];
	        this.approvalMode = source["approvalMode"];
	        this.needsSetup = source["needsSetup"];
	        this.model = source["model"];
	        this.theme = source["theme"];
	        this.unconfined = source["unconfined"];
	        this.sandboxOff = source["sandboxOff"];
	        this.panelWidths = source["panelWidths"];
	    }
	}
	export class AttachResult {
	    image?: protocol.ImageRef;
	    refused?: string;
	    model?: string;
	    canMark?: boolean;
	    token?: string;
	
	    static createFrom(source: any = {}) {
	        return new AttachResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.image = this.convertValues(source["image"], protocol.ImageRef);
	        this.refused = source["refused"];
	        this.model = source["model"];
	        this.canMark = source["canMark"];
	        this.token = source["token"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AuditFilter {
	    session?: string;
	    tool?: string;
	    by?: string;
	    rule?: string;
	    text?: string;
	
	    static createFrom(source: any = {}) {
	        return new AuditFilter(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = source["session"];
	        this.tool = source["tool"];
	        this.by = source["by"];
	        this.rule = source["rule"];
	        this.text = source["text"];
	    }
	}
	export class DirEntry {
	    name: string;
	    path: string;
	    isDir: boolean;
	    size: number;
	    ignored: boolean;
	
	    static createFrom(source: any = {}) {
	        return new DirEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.path = source["path"];
	        this.isDir = source["isDir"];
	        this.size = source["size"];
	        this.ignored = source["ignored"];
	    }
	}
	export class FileDiffView {
	    change: watch.ChangedFile;
	    diff: string;
	    note?: string;
	
	    static createFrom(source: any = {}) {
	        return new FileDiffView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.change = this.convertValues(source["change"], watch.ChangedFile);
	        this.diff = source["diff"];
	        this.note = source["note"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FileView {
	    path: string;
	    content: string;
	    size: number;
	    binary: boolean;
	    truncated: boolean;
	
	    static createFrom(source: any = {}) {
	        return new FileView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.content = source["content"];
	        this.size = source["size"];
	        this.binary = source["binary"];
	        this.truncated = source["truncated"];
	    }
	}
	export class McpPanel {
	    servers: protocol.McpServer[];
	    untrusted?: protocol.McpUntrusted;
	    problem?: string;
	    claudeImport: boolean;
	
	    static createFrom(source: any = {}) {
	        return new McpPanel(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.servers = this.convertValues(source["servers"], protocol.McpServer);
	        this.untrusted = this.convertValues(source["untrusted"], protocol.McpUntrusted);
	        this.problem = source["problem"];
	        this.claudeImport = source["claudeImport"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class McpServerForm {
	    config: mcp.ServerConfig;
	    editable: boolean;
	
	    static createFrom(source: any = {}) {
	        return new McpServerForm(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.config = this.convertValues(source["config"], mcp.ServerConfig);
	        this.editable = source["editable"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MentionCandidate {
	    mention: string;
	    label: string;
	
	    static createFrom(source: any = {}) {
	        return new MentionCandidate(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mention = source["mention"];
	        this.label = source["label"];
	    }
	}
	export class ModelPrice {
	    model: string;
	    price: settings.Price;
	    source: string;
	
	    static createFrom(source: any = {}) {
	        return new ModelPrice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.model = source["model"];
	        this.price = this.convertValues(source["price"], settings.Price);
	        this.source = source["source"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PolicyFileError {
	    file: string;
	    line?: number;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new PolicyFileError(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.line = source["line"];
	        this.message = source["message"];
	    }
	}
	export class PolicyRule {
	    id?: string;
	    tool: string;
	    files?: string[];
	    commands?: string[][];
	    action?: string;
	    cwd?: string;
	    domain?: string;
	    summary: string;
	    agent?: string;
	    decision: string;
	    reason?: string;
	    layer: string;
	    file?: string;
	    line?: number;
	    match?: string[];
	    notMatch?: string[];
	    uses: policy.Use;
	    written: policy.Written;
	
	    static createFrom(source: any = {}) {
	        return new PolicyRule(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.tool = source["tool"];
	        this.files = source["files"];
	        this.commands = source["commands"];
	        this.action = source["action"];
	        this.cwd = source["cwd"];
	        this.domain = source["domain"];
	        this.summary = source["summary"];
	        this.agent = source["agent"];
	        this.decision = source["decision"];
	        this.reason = source["reason"];
	        this.layer = source["layer"];
	        this.file = source["file"];
	        this.line = source["line"];
	        this.match = source["match"];
	        this.notMatch = source["notMatch"];
	        this.uses = this.convertValues(source["uses"], policy.Use);
	        this.written = this.convertValues(source["written"], policy.Written);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PolicyView {
	    rules: PolicyRule[];
	    errors: PolicyFileError[];
	    untrusted?: string;
	    untrustedText?: string;
	    untrustedHash?: string;
	    userFile: string;
	    workspaceFile?: string;
	
	    static createFrom(source: any = {}) {
	        return new PolicyView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.rules = this.convertValues(source["rules"], PolicyRule);
	        this.errors = this.convertValues(source["errors"], PolicyFileError);
	        this.untrusted = source["untrusted"];
	        this.untrustedText = source["untrustedText"];
	        this.untrustedHash = source["untrustedHash"];
	        this.userFile = source["userFile"];
	        this.workspaceFile = source["workspaceFile"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProcessLogs {
	    data: string;
	    offset: number;
	    nextOffset: number;
	    truncated: boolean;
	    status: string;
	    exitCode?: number;
	
	    static createFrom(source: any = {}) {
	        return new ProcessLogs(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.data = source["data"];
	        this.offset = source["offset"];
	        this.nextOffset = source["nextOffset"];
	        this.truncated = source["truncated"];
	        this.status = source["status"];
	        this.exitCode = source["exitCode"];
	    }
	}
	export class SandboxView {
	    mode: string;
	    available: boolean;
	    abi?: number;
	    confined: boolean;
	    reason?: string;
	    layers: string[];
	    landlockOnly?: boolean;
	    missing?: string;
	    writable: string[];
	    denyRead: string[];
	    readOnly: string[];
	    sockets: string;
	    network: string;
	    signals: string;
	    line: string;
	    denyTCP: boolean;
	    denyList: string[];
	    socketList: string[];
	    networkMode: string;
	    networkAllow: string[];
	
	    static createFrom(source: any = {}) {
	        return new SandboxView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mode = source["mode"];
	        this.available = source["available"];
	        this.abi = source["abi"];
	        this.confined = source["confined"];
	        this.reason = source["reason"];
	        this.layers = source["layers"];
	        this.landlockOnly = source["landlockOnly"];
	        this.missing = source["missing"];
	        this.writable = source["writable"];
	        this.denyRead = source["denyRead"];
	        this.readOnly = source["readOnly"];
	        this.sockets = source["sockets"];
	        this.network = source["network"];
	        this.signals = source["signals"];
	        this.line = source["line"];
	        this.denyTCP = source["denyTCP"];
	        this.denyList = source["denyList"];
	        this.socketList = source["socketList"];
	        this.networkMode = source["networkMode"];
	        this.networkAllow = source["networkAllow"];
	    }
	}
	export class SessionInfo {
	    id: string;
	    title: string;
	    createdMs: number;
	    updatedMs: number;
	    turns: number;
	    current: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SessionInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.createdMs = source["createdMs"];
	        this.updatedMs = source["updatedMs"];
	        this.turns = source["turns"];
	        this.current = source["current"];
	    }
	}
	export class SettingsInput {
	    baseURL: string;
	    model: string;
	    apiKey: string;
	    clearKey: boolean;
	    theme: string;
	    api: string;
	    price?: settings.Price;
	    clearPrice?: boolean;
	    context?: settings.ContextLimits;
	    sendKey: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SettingsInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.baseURL = source["baseURL"];
	        this.model = source["model"];
	        this.apiKey = source["apiKey"];
	        this.clearKey = source["clearKey"];
	        this.theme = source["theme"];
	        this.api = source["api"];
	        this.price = this.convertValues(source["price"], settings.Price);
	        this.clearPrice = source["clearPrice"];
	        this.context = this.convertValues(source["context"], settings.ContextLimits);
	        this.sendKey = source["sendKey"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SettingsView {
	    baseURL: string;
	    model: string;
	    hasKey: boolean;
	    theme: string;
	    api: string;
	    sources: settings.Sources;
	    price: settings.Price;
	    priceSource: string;
	    context: settings.ContextLimits;
	
	    static createFrom(source: any = {}) {
	        return new SettingsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.baseURL = source["baseURL"];
	        this.model = source["model"];
	        this.hasKey = source["hasKey"];
	        this.theme = source["theme"];
	        this.api = source["api"];
	        this.sources = this.convertValues(source["sources"], settings.Sources);
	        this.price = this.convertValues(source["price"], settings.Price);
	        this.priceSource = source["priceSource"];
	        this.context = this.convertValues(source["context"], settings.ContextLimits);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SubmitResult {
	    queued: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SubmitResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.queued = source["queued"];
	    }
	}
	export class TabInfo {
	    id: string;
	    name: string;
	    workspace: string;
	    title: string;
	    current: boolean;
	    running: boolean;
	    waiting: number;
	    gone?: string;
	    sharedWith?: string[];
	
	    static createFrom(source: any = {}) {
	        return new TabInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.workspace = source["workspace"];
	        this.title = source["title"];
	        this.current = source["current"];
	        this.running = source["running"];
	        this.waiting = source["waiting"];
	        this.gone = source["gone"];
	        this.sharedWith = source["sharedWith"];
	    }
	}
	export class VisionView {
	    model: string;
	    canSee: boolean;
	    source: string;
	
	    static createFrom(source: any = {}) {
	        return new VisionView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.model = source["model"];
	        this.canSee = source["canSee"];
	        this.source = source["source"];
	    }
	}
	export class WatchStatus {
	    watching: boolean;
	    degraded: boolean;
	    reason?: string;
	
	    static createFrom(source: any = {}) {
	        return new WatchStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.watching = source["watching"];
	        this.degraded = source["degraded"];
	        this.reason = source["reason"];
	    }
	}

}

export namespace llm {
	
	export class ConnectionResult {
	    status: string;
	    message: string;
	    kind?: string;
	
	    static createFrom(source: any = {}) {
	        return new ConnectionResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.status = source["status"];
	        this.message = source["message"];
	        this.kind = source["kind"];
	    }
	}
	export class LocalServer {
	    name: string;
	    baseURL: string;
	    models: string[];
	
	    static createFrom(source: any = {}) {
	        return new LocalServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.baseURL = source["baseURL"];
	        this.models = source["models"];
	    }
	}
	export class Window {
	    tokens: number;
	    source: string;
	
	    static createFrom(source: any = {}) {
	        return new Window(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tokens = source["tokens"];
	        this.source = source["source"];
	    }
	}

}

export namespace mcp {
	
	export class ServerConfig {
	    command?: string;
	    args?: string[];
	    env?: {[key: string]: string};
	    url?: string;
	    headers?: {[key: string]: string};
	    type?: string;
	    disabled?: boolean;
	    trustReadOnlyHints?: boolean;
	    timeoutSeconds?: number;
	    disabledTools?: string[];
	
	    static createFrom(source: any = {}) {
	        return new ServerConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.url = source["url"];
	        this.headers = source["headers"];
	        this.type = source["type"];
	        this.disabled = source["disabled"];
	        this.trustReadOnlyHints = source["trustReadOnlyHints"];
	        this.timeoutSeconds = source["timeoutSeconds"];
	        this.disabledTools = source["disabledTools"];
	    }
	}

}

export namespace policy {
	
	export class Use {
	    count: number;
	    // Go type: time
	    last: any;
	
	    static createFrom(source: any = {}) {
	        return new Use(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.count = source["count"];
	        this.last = this.convertValues(source["last"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Written {
	    id?: string;
	    decision: string;
	    tool: string;
	    commands?: string[];
	    files?: string[];
	    action?: string;
	    cwd?: string;
	    domain?: string;
	    reason?: string;
	    summary?: string;
	    match?: string[];
	    notMatch?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Written(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.decision = source["decision"];
	        this.tool = source["tool"];
	        this.commands = source["commands"];
	        this.files = source["files"];
	        this.action = source["action"];
	        this.cwd = source["cwd"];
	        this.domain = source["domain"];
	        this.reason = source["reason"];
	        this.summary = source["summary"];
	        this.match = source["match"];
	        this.notMatch = source["notMatch"];
	    }
	}

}

export namespace proc {
	
	export class Leftover {
	    id: string;
	    command: string;
	    cwd: string;
	    // Go type: time
	    startedAt: any;
	    pgid: number;
	    pids: number[];
	
	    static createFrom(source: any = {}) {
	        return new Leftover(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.command = source["command"];
	        this.cwd = source["cwd"];
	        this.startedAt = this.convertValues(source["startedAt"], null);
	        this.pgid = source["pgid"];
	        this.pids = source["pids"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace protocol {
	
	export class Rule {
	    id?: string;
	    tool: string;
	    files?: string[];
	    commands?: string[][];
	    action?: string;
	    cwd?: string;
	    domain?: string;
	    summary: string;
	    agent?: string;
	
	    static createFrom(source: any = {}) {
	        return new Rule(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.tool = source["tool"];
	        this.files = source["files"];
	        this.commands = source["commands"];
	        this.action = source["action"];
	        this.cwd = source["cwd"];
	        this.domain = source["domain"];
	        this.summary = source["summary"];
	        this.agent = source["agent"];
	    }
	}
	export class WebPreview {
	    url: string;
	    fetchUrl?: string;
	    domain: string;
	    newDomain: boolean;
	
	    static createFrom(source: any = {}) {
	        return new WebPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.url = source["url"];
	        this.fetchUrl = source["fetchUrl"];
	        this.domain = source["domain"];
	        this.newDomain = source["newDomain"];
	    }
	}
	export class McpPreview {
	    server: string;
	    tool: string;
	    description?: string;
	
	    static createFrom(source: any = {}) {
	        return new McpPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.tool = source["tool"];
	        this.description = source["description"];
	    }
	}
	export class CommandSegment {
	    text: string;
	    args: string[];
	    deletes?: boolean;
	    writesOutside?: boolean;
	    network?: boolean;
	    elevates?: boolean;
	    writesGit?: boolean;
	    opaque?: boolean;
	    readsOutside?: string[];
	    writesOutsideTo?: string[];
	    protectedPaths?: string[];
	    destructive?: string;
	    gitCode?: string;
	    warnings?: string[];
	
	    static createFrom(source: any = {}) {
	        return new CommandSegment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.args = source["args"];
	        this.deletes = source["deletes"];
	        this.writesOutside = source["writesOutside"];
	        this.network = source["network"];
	        this.elevates = source["elevates"];
	        this.writesGit = source["writesGit"];
	        this.opaque = source["opaque"];
	        this.readsOutside = source["readsOutside"];
	        this.writesOutsideTo = source["writesOutsideTo"];
	        this.protectedPaths = source["protectedPaths"];
	        this.destructive = source["destructive"];
	        this.gitCode = source["gitCode"];
	        this.warnings = source["warnings"];
	    }
	}
	export class CommandPreview {
	    action: string;
	    command?: string;
	    cwd?: string;
	    processId?: string;
	    input?: string;
	    segments?: CommandSegment[];
	    parseError?: string;
	    confined?: boolean;
	    sandbox?: string;
	
	    static createFrom(source: any = {}) {
	        return new CommandPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.action = source["action"];
	        this.command = source["command"];
	        this.cwd = source["cwd"];
	        this.processId = source["processId"];
	        this.input = source["input"];
	        this.segments = this.convertValues(source["segments"], CommandSegment);
	        this.parseError = source["parseError"];
	        this.confined = source["confined"];
	        this.sandbox = source["sandbox"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class HunkPreview {
	    id: string;
	    oldStart: number;
	    oldLines: number;
	    newStart: number;
	    newLines: number;
	    diff: string;
	
	    static createFrom(source: any = {}) {
	        return new HunkPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.oldStart = source["oldStart"];
	        this.oldLines = source["oldLines"];
	        this.newStart = source["newStart"];
	        this.newLines = source["newLines"];
	        this.diff = source["diff"];
	    }
	}
	export class FilePreview {
	    path: string;
	    operation: string;
	    movedFrom?: string;
	    resolvedPath?: string;
	    resolvedFrom?: string;
	    replaces?: boolean;
	    replacedDiff?: string;
	    added: number;
	    removed: number;
	    diff: string;
	    hunks?: HunkPreview[];
	    oldHash: string;
	    oldContent: string;
	    newContent: string;
	    contentOmitted?: boolean;
	    unrestorable?: string;
	
	    static createFrom(source: any = {}) {
	        return new FilePreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.operation = source["operation"];
	        this.movedFrom = source["movedFrom"];
	        this.resolvedPath = source["resolvedPath"];
	        this.resolvedFrom = source["resolvedFrom"];
	        this.replaces = source["replaces"];
	        this.replacedDiff = source["replacedDiff"];
	        this.added = source["added"];
	        this.removed = source["removed"];
	        this.diff = source["diff"];
	        this.hunks = this.convertValues(source["hunks"], HunkPreview);
	        this.oldHash = source["oldHash"];
	        this.oldContent = source["oldContent"];
	        this.newContent = source["newContent"];
	        this.contentOmitted = source["contentOmitted"];
	        this.unrestorable = source["unrestorable"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Preview {
	    kind: string;
	    summary: string;
	    readOnly?: boolean;
	    files?: FilePreview[];
	    partial?: boolean;
	    command?: CommandPreview;
	    args?: number[];
	    argsText?: string;
	    mcp?: McpPreview;
	    web?: WebPreview;
	
	    static createFrom(source: any = {}) {
	        return new Preview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.summary = source["summary"];
	        this.readOnly = source["readOnly"];
	        this.files = this.convertValues(source["files"], FilePreview);
	        this.partial = source["partial"];
	        this.command = this.convertValues(source["command"], CommandPreview);
	        this.args = source["args"];
	        this.argsText = source["argsText"];
	        this.mcp = this.convertValues(source["mcp"], McpPreview);
	        this.web = this.convertValues(source["web"], WebPreview);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ApprovalRequestedPayload {
	    approvalId: string;
	    callId: string;
	    tool: string;
	    preview: Preview;
	    rule?: Rule;
	    agent?: string;
	    stale?: string[];
	
	    static createFrom(source: any = {}) {
	        return new ApprovalRequestedPayload(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.approvalId = source["approvalId"];
	        this.callId = source["callId"];
	        this.tool = source["tool"];
	        this.preview = this.convertValues(source["preview"], Preview);
	        this.rule = this.convertValues(source["rule"], Rule);
	        this.agent = source["agent"];
	        this.stale = source["stale"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Blocked {
	    callId: string;
	    tool: string;
	    note?: string;
	
	    static createFrom(source: any = {}) {
	        return new Blocked(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.callId = source["callId"];
	        this.tool = source["tool"];
	        this.note = source["note"];
	    }
	}
	export class StandingRef {
	    id: string;
	    decision: string;
	    layer: string;
	    file?: string;
	    summary: string;
	    reason?: string;
	
	    static createFrom(source: any = {}) {
	        return new StandingRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.decision = source["decision"];
	        this.layer = source["layer"];
	        this.file = source["file"];
	        this.summary = source["summary"];
	        this.reason = source["reason"];
	    }
	}
	export class CallApproval {
	    by: string;
	    rules?: Rule[];
	    standing?: StandingRef[];
	
	    static createFrom(source: any = {}) {
	        return new CallApproval(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.by = source["by"];
	        this.rules = this.convertValues(source["rules"], Rule);
	        this.standing = this.convertValues(source["standing"], StandingRef);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class UndoAppliedPayload {
	    unit: string;
	    of: string;
	    restored: string[];
	    skipped?: {[key: string]: string};
	
	    static createFrom(source: any = {}) {
	        return new UndoAppliedPayload(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.unit = source["unit"];
	        this.of = source["of"];
	        this.restored = source["restored"];
	        this.skipped = source["skipped"];
	    }
	}
	export class Compaction {
	    keepFrom?: string;
	    prompt?: string;
	    replaced: number;
	    manual?: boolean;
	    tokensBefore: number;
	    undone?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Compaction(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.keepFrom = source["keepFrom"];
	        this.prompt = source["prompt"];
	        this.replaced = source["replaced"];
	        this.manual = source["manual"];
	        this.tokensBefore = source["tokensBefore"];
	        this.undone = source["undone"];
	    }
	}
	export class ProposedPlan {
	    callId: string;
	    plan: string;
	
	    static createFrom(source: any = {}) {
	        return new ProposedPlan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.callId = source["callId"];
	        this.plan = source["plan"];
	    }
	}
	export class ContextUse {
	    tokens: number;
	    estimated?: boolean;
	    window: number;
	    trimmed?: number;
	    windowSource?: string;
	    compacted?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ContextUse(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tokens = source["tokens"];
	        this.estimated = source["estimated"];
	        this.window = source["window"];
	        this.trimmed = source["trimmed"];
	        this.windowSource = source["windowSource"];
	        this.compacted = source["compacted"];
	    }
	}
	export class Usage {
	    promptTokens: number;
	    completionTokens: number;
	    totalTokens: number;
	    cachedTokens: number;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.promptTokens = source["promptTokens"];
	        this.completionTokens = source["completionTokens"];
	        this.totalTokens = source["totalTokens"];
	        this.cachedTokens = source["cachedTokens"];
	    }
	}
	export class ImageRef {
	    id: string;
	    mime: string;
	    name?: string;
	    width: number;
	    height: number;
	    origWidth: number;
	    origHeight: number;
	    origBytes: number;
	    bytes: number;
	
	    static createFrom(source: any = {}) {
	        return new ImageRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.mime = source["mime"];
	        this.name = source["name"];
	        this.width = source["width"];
	        this.height = source["height"];
	        this.origWidth = source["origWidth"];
	        this.origHeight = source["origHeight"];
	        this.origBytes = source["origBytes"];
	        this.bytes = source["bytes"];
	    }
	}
	export class TranscriptItem {
	    kind: string;
	    id?: string;
	    turnId: string;
	    text?: string;
	    images?: ImageRef[];
	    replaces?: string;
	    streaming?: boolean;
	    cancelled?: boolean;
	    tool?: string;
	    args?: number[];
	    result?: number[];
	    isError?: boolean;
	    durationMs?: number;
	    waitMs?: number;
	    approval?: CallApproval;
	    running?: boolean;
	    reason?: string;
	    error?: string;
	    errorKind?: string;
	    usage?: Usage;
	    model?: string;
	    context?: ContextUse;
	    blocked?: Blocked;
	    plan?: ProposedPlan;
	    compaction?: Compaction;
	    undo?: UndoAppliedPayload;
	    servers?: string[];
	    reasoning?: number[][];
	    reasoningModel?: string;
	
	    static createFrom(source: any = {}) {
	        return new TranscriptItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.id = source["id"];
	        this.turnId = source["turnId"];
	        this.text = source["text"];
	        this.images = this.convertValues(source["images"], ImageRef);
	        this.replaces = source["replaces"];
	        this.streaming = source["streaming"];
	        this.cancelled = source["cancelled"];
	        this.tool = source["tool"];
	        this.args = source["args"];
	        this.result = source["result"];
	        this.isError = source["isError"];
	        this.durationMs = source["durationMs"];
	        this.waitMs = source["waitMs"];
	        this.approval = this.convertValues(source["approval"], CallApproval);
	        this.running = source["running"];
	        this.reason = source["reason"];
	        this.error = source["error"];
	        this.errorKind = source["errorKind"];
	        this.usage = this.convertValues(source["usage"], Usage);
	        this.model = source["model"];
	        this.context = this.convertValues(source["context"], ContextUse);
	        this.blocked = this.convertValues(source["blocked"], Blocked);
	        this.plan = this.convertValues(source["plan"], ProposedPlan);
	        this.compaction = this.convertValues(source["compaction"], Compaction);
	        this.undo = this.convertValues(source["undo"], UndoAppliedPayload);
	        this.servers = source["servers"];
	        this.reasoning = source["reasoning"];
	        this.reasoningModel = source["reasoningModel"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ChildTranscript {
	    sessionId: string;
	    agent: string;
	    turnId: string;
	    items: TranscriptItem[];
	
	    static createFrom(source: any = {}) {
	        return new ChildTranscript(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.agent = source["agent"];
	        this.turnId = source["turnId"];
	        this.items = this.convertValues(source["items"], TranscriptItem);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	
	export class Decision {
	    kind: string;
	    note?: string;
	    files?: string[];
	    hunks?: string[];
	    scope?: string;
	    unconfined?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Decision(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.note = source["note"];
	        this.files = source["files"];
	        this.hunks = source["hunks"];
	        this.scope = source["scope"];
	        this.unconfined = source["unconfined"];
	    }
	}
	
	
	
	
	export class McpTool {
	    name: string;
	    surfaceName: string;
	    description?: string;
	    readOnlyHint?: boolean;
	    enabled: boolean;
	
	    static createFrom(source: any = {}) {
	        return new McpTool(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.surfaceName = source["surfaceName"];
	        this.description = source["description"];
	        this.readOnlyHint = source["readOnlyHint"];
	        this.enabled = source["enabled"];
	    }
	}
	export class McpServer {
	    name: string;
	    source: string;
	    state: string;
	    error?: string;
	    stderr?: string;
	    tools?: McpTool[];
	    remote?: boolean;
	    target: string;
	    needsOAuth?: boolean;
	    trustReadOnlyHints?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new McpServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.source = source["source"];
	        this.state = source["state"];
	        this.error = source["error"];
	        this.stderr = source["stderr"];
	        this.tools = this.convertValues(source["tools"], McpTool);
	        this.remote = source["remote"];
	        this.target = source["target"];
	        this.needsOAuth = source["needsOAuth"];
	        this.trustReadOnlyHints = source["trustReadOnlyHints"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class McpTrustEnv {
	    name: string;
	    value: string;
	    secret?: boolean;
	    loadsCode?: boolean;
	    header?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new McpTrustEnv(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.value = source["value"];
	        this.secret = source["secret"];
	        this.loadsCode = source["loadsCode"];
	        this.header = source["header"];
	    }
	}
	export class McpTrustServer {
	    name: string;
	    line: string;
	    env?: McpTrustEnv[];
	    trustReadOnlyHints?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new McpTrustServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.line = source["line"];
	        this.env = this.convertValues(source["env"], McpTrustEnv);
	        this.trustReadOnlyHints = source["trustReadOnlyHints"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class McpUntrusted {
	    file: string;
	    lines: string[];
	    servers?: McpTrustServer[];
	
	    static createFrom(source: any = {}) {
	        return new McpUntrusted(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.lines = source["lines"];
	        this.servers = this.convertValues(source["servers"], McpTrustServer);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class NetUse {
	    reached: string[];
	    refused: string[];
	
	    static createFrom(source: any = {}) {
	        return new NetUse(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.reached = source["reached"];
	        this.refused = source["refused"];
	    }
	}
	
	export class ProcessInfo {
	    processId: string;
	    pid: number;
	    command: string;
	    cwd: string;
	    status: string;
	    exitCode?: number;
	    startedAtMs: number;
	    endedAtMs?: number;
	    ports?: number[];
	    restored?: boolean;
	    network?: NetUse;
	
	    static createFrom(source: any = {}) {
	        return new ProcessInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.processId = source["processId"];
	        this.pid = source["pid"];
	        this.command = source["command"];
	        this.cwd = source["cwd"];
	        this.status = source["status"];
	        this.exitCode = source["exitCode"];
	        this.startedAtMs = source["startedAtMs"];
	        this.endedAtMs = source["endedAtMs"];
	        this.ports = source["ports"];
	        this.restored = source["restored"];
	        this.network = this.convertValues(source["network"], NetUse);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class Snapshot {
	    sessionId: string;
	    turnId: string;
	    transcript: TranscriptItem[];
	    pendingApprovals: ApprovalRequestedPayload[];
	    processes: ProcessInfo[];
	    lastSeq: number;
	    children?: {[key: string]: ChildTranscript};
	
	    static createFrom(source: any = {}) {
	        return new Snapshot(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.turnId = source["turnId"];
	        this.transcript = this.convertValues(source["transcript"], TranscriptItem);
	        this.pendingApprovals = this.convertValues(source["pendingApprovals"], ApprovalRequestedPayload);
	        this.processes = this.convertValues(source["processes"], ProcessInfo);
	        this.lastSeq = source["lastSeq"];
	        this.children = this.convertValues(source["children"], ChildTranscript, true);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	export class UndoFile {
	    path: string;
	    by: string[];
	    state: string;
	    note?: string;
	    binary?: boolean;
	    operation: string;
	    added: number;
	    removed: number;
	    turnDiff: string;
	    sinceDiff?: string;
	    undoDiff: string;
	    hunks?: HunkPreview[];
	    prior: string;
	    now: string;
	
	    static createFrom(source: any = {}) {
	        return new UndoFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.by = source["by"];
	        this.state = source["state"];
	        this.note = source["note"];
	        this.binary = source["binary"];
	        this.operation = source["operation"];
	        this.added = source["added"];
	        this.removed = source["removed"];
	        this.turnDiff = source["turnDiff"];
	        this.sinceDiff = source["sinceDiff"];
	        this.undoDiff = source["undoDiff"];
	        this.hunks = this.convertValues(source["hunks"], HunkPreview);
	        this.prior = source["prior"];
	        this.now = source["now"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class UndoSelection {
	    files?: string[];
	    hunks?: string[];
	    choices?: {[key: string]: string};
	
	    static createFrom(source: any = {}) {
	        return new UndoSelection(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.files = source["files"];
	        this.hunks = source["hunks"];
	        this.choices = source["choices"];
	    }
	}
	

}

export namespace settings {
	
	export class ContextLimits {
	    window: number;
	    microCompactAt: number;
	    compactAt: number;
	
	    static createFrom(source: any = {}) {
	        return new ContextLimits(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.window = source["window"];
	        this.microCompactAt = source["microCompactAt"];
	        this.compactAt = source["compactAt"];
	    }
	}
	export class Price {
	    inputPerMTok: number;
	    outputPerMTok: number;
	
	    static createFrom(source: any = {}) {
	        return new Price(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.inputPerMTok = source["inputPerMTok"];
	        this.outputPerMTok = source["outputPerMTok"];
	    }
	}
	export class Sources {
	    baseURL: string;
	    apiKey: string;
	    model: string;
	    api: string;
	
	    static createFrom(source: any = {}) {
	        return new Sources(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.baseURL = source["baseURL"];
	        this.apiKey = source["apiKey"];
	        this.model = source["model"];
	        this.api = source["api"];
	    }
	}

}

export namespace trust {
	
	export class KindTrusts {
	    kind: string;
	    // Go type: time
	    at: any;
	
	    static createFrom(source: any = {}) {
	        return new KindTrusts(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.at = this.convertValues(source["at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FolderTrust {
	    folder: string;
	    kinds: KindTrusts[];
	
	    static createFrom(source: any = {}) {
	        return new FolderTrust(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.folder = source["folder"];
	        this.kinds = this.convertValues(source["kinds"], KindTrusts);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace usercmd {
	
	export class Command {
	    name: string;
	    description: string;
	    source: string;
	
	    static createFrom(source: any = {}) {
	        return new Command(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.source = source["source"];
	    }
	}
	export class PendingFile {
	    path: string;
	    name?: string;
	    description?: string;
	    prompt?: string;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new PendingFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.prompt = source["prompt"];
	        this.error = source["error"];
	    }
	}
	export class Pending {
	    hash: string;
	    files: PendingFile[];
	
	    static createFrom(source: any = {}) {
	        return new Pending(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hash = source["hash"];
	        this.files = this.convertValues(source["files"], PendingFile);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace watch {
	
	export class ChangedFile {
	    path: string;
	    status: string;
	    badge: string;
	    origin: string;
	    origins: string[];
	    baselineKnown: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ChangedFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.status = source["status"];
	        this.badge = source["badge"];
	        this.origin = source["origin"];
	        this.origins = source["origins"];
	        this.baselineKnown = source["baselineKnown"];
	    }
	}

}

export namespace worktree {
	
	export class Merged {
	    base: string;
	    commits: string[];
	
	    static createFrom(source: any = {}) {
	        return new Merged(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.base = source["base"];
	        this.commits = source["commits"];
	    }
	}
	export class Worktree {
	    name: string;
	    path: string;
	    branch: string;
	    base: string;
	    missing?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Worktree(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.path = source["path"];
	        this.branch = source["branch"];
	        this.base = source["base"];
	        this.missing = source["missing"];
	    }
	}

}

