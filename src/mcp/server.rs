//! The rmcp `ServerHandler`: capabilities (tools, resources, prompts, the skills
//! extension with `directoryRead`), the `instructions` (tool guide, skill listing, `always` sections), and the
//! dispatch of every request to [`super::tools`], [`super::skills`], [`super::resources`]
//! and [`super::prompts`], each once the first load is done (`initialize` and
//! `tools/list` answer before). Tool failures are tool errors (`isError`), unknown tools and bad
//! URIs JSON-RPC errors; nothing panics.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
    ContentBlock, CustomRequest, CustomResult, GetPromptRequestParams, GetPromptResponse,
    GetSkillRequestParams, GetSkillResult, Implementation, ListPromptsResult, ListResourcesResult,
    ListSkillsResult, ListToolsResult, PaginatedRequestParams, ReadResourceDirectoryRequestParams,
    ReadResourceDirectoryResult, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

use super::state::State;
use super::tools;

/// The server: a handle on the shared state.
#[derive(Clone, Debug)]
pub struct SkillnavServer {
    state: Arc<State>,
}

impl SkillnavServer {
    /// A server over `state`.
    pub fn new(state: Arc<State>) -> Self {
        Self { state }
    }
}

/// Serve `state` on stdin/stdout until the client closes stdin (also before the
/// handshake: a client that goes away is not an error), through the line transport that
/// answers malformed JSON-RPC itself ([`super::transport`]), sending list-changed
/// notifications after file changes ([`super::changes`]).
pub async fn serve_stdio(state: Arc<State>) -> anyhow::Result<()> {
    let service = match SkillnavServer::new(Arc::clone(&state))
        .serve(super::transport::stdio())
        .await
    {
        Ok(s) => s,
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    let follower = tokio::spawn(super::changes::follow(state, service.peer().clone()));
    service.waiting().await?;
    follower.abort();
    Ok(())
}

/// A tool's outcome as a `tools/call` result: the object as `structuredContent` and the
/// same JSON as the one text block (for clients older than structured content); a tool
/// error, or an object over `max_chars` characters, as `isError` with a one-line message.
pub fn tool_result(
    result: crate::agent::error::AgentResult<serde_json::Value>,
    max_chars: usize,
) -> CallToolResult {
    match result {
        Ok(v) if v.to_string().chars().count() > max_chars => {
            CallToolResult::error(vec![ContentBlock::text(format!(
                "the result is over this server's limit of {max_chars} characters: ask for less (a smaller top_k, depth or max_tokens, or fewer ids)"
            ))])
        }
        Ok(v) => CallToolResult::structured(v),
        Err(e) => CallToolResult::error(vec![ContentBlock::text(e.0)]),
    }
}

/// What the server declares: tools, resources and prompts (both with `listChanged`), and
/// the SEP-2640 skills extension with `directoryRead` and `listChanged` (the setting rmcp's
/// `SkillsCapability` does not have yet, added to its settings object).
pub fn capabilities() -> ServerCapabilities {
    let mut caps = ServerCapabilities::builder()
        .enable_tools()
        .enable_resources()
        .enable_resources_list_changed()
        .enable_prompts()
        .enable_prompts_list_changed()
        .enable_skills_with_directory_read()
        .build();
    if let Some(skills) = caps
        .extensions
        .as_mut()
        .and_then(|e| e.get_mut(rmcp::model::SKILLS_EXTENSION_ID))
    {
        skills.insert("listChanged".into(), serde_json::Value::Bool(true));
    }
    caps
}

/// Every tool definition as rmcp tools (a definition rmcp cannot read is left out).
pub fn tool_list() -> Vec<Tool> {
    tools::definitions()
        .into_iter()
        .filter_map(|v| serde_json::from_value(v).ok())
        .collect()
}

impl ServerHandler for SkillnavServer {
    /// Answered at once with the roots still loading, unless the load ends within the
    /// state's `init_wait` (docs/MCP.md "Start-up").
    fn get_info(&self) -> ServerConfig {
        let caps = capabilities();
        let ws = match self.state.init_wait {
            Some(wait) => self.state.loaded_within(wait),
            None => Some(self.state.snapshot()),
        };
        let instructions = match ws {
            Some(ws) => crate::agent::instructions::instructions(&ws),
            None => crate::agent::instructions::while_loading(),
        };
        ServerConfig::new(caps)
            .with_server_info(Implementation::new("skillnav", env!("CARGO_PKG_VERSION")))
            .with_instructions(instructions)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tool_list()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tool_list().into_iter().find(|t| t.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.state.ready().await;
        let Some(result) = tools::call(&self.state, &request.name, request.arguments.as_ref())
        else {
            let names: Vec<String> = tool_list()
                .into_iter()
                .map(|t| t.name.to_string())
                .collect();
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool {:?} (tools: {})",
                    request.name,
                    names.join(", ")
                ),
                None,
            ));
        };
        let limits = self.state.snapshot().limits();
        Ok(tool_result(result, limits.max_chars).into())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.state.ready().await;
        let cursor = request.and_then(|r| r.cursor);
        super::resources::list(&self.state.fresh(&[]), cursor.as_deref())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.state.ready().await;
        let ws = self.state.fresh(&[]);
        super::resources::read(&ws, &request.uri).map(Into::into)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.state.ready().await;
        Ok(super::prompts::list(&self.state.fresh(&[])))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.state.ready().await;
        super::prompts::get(&self.state.fresh(&[]), &request.name).map(Into::into)
    }

    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        self.state.ready().await;
        Ok(super::skills::list(&self.state.fresh(&[])))
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.state.ready().await;
        super::skills::get(&self.state.fresh(&[]), &request.uri)
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        self.state.ready().await;
        super::resources::read_directory(&self.state.fresh(&[]), &request.uri)
    }

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        Err(not_served("completion/complete"))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(not_served(&request.method))
    }
}

/// The methods this server answers, for the `-32601` of any other.
pub const METHODS: &str = "initialize, ping, tools/list, tools/call, resources/list, \
resources/read, resources/directory/read, prompts/list, prompts/get, skills/list, skills/get";

/// `-32601` (method not found) for `method`, naming the methods this server answers.
fn not_served(method: &str) -> ErrorData {
    ErrorData::new(
        rmcp::model::ErrorCode::METHOD_NOT_FOUND,
        format!("method {method:?} is not served; this server answers {METHODS}"),
        None,
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn the_capabilities_declare_list_changed_for_resources_prompts_and_skills() {
        let v = serde_json::to_value(super::capabilities()).unwrap();
        assert_eq!(v["resources"]["listChanged"], json!(true));
        assert_eq!(v["prompts"]["listChanged"], json!(true));
        assert_eq!(
            v["extensions"]["io.modelcontextprotocol/skills"],
            json!({"directoryRead": true, "listChanged": true})
        );
    }
}
