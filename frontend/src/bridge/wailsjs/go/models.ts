export namespace main {
	
	export class AppState {
	    version: string;
	    workspace: string;
	    workspaceName: string;
	    approvalMode: string;
	
	    static createFrom(source: any = {}) {
	        return new AppState(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.workspace = source["workspace"];
	        this.workspaceName = source["workspaceName"];
	        this.approvalMode = source["approvalMode"];
	    }
	}

}

