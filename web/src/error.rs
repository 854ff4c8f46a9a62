//! [`ApiError`]: a request the API refuses, with the status and a message naming the problem.

/// Why a request failed: answered as `{"error": message}` with `status`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{status}: {message}")]
pub struct ApiError {
    /// The HTTP status (4xx for bad requests, 5xx for failures of the server).
    pub status: u16,
    /// What is wrong, naming the parameter or file.
    pub message: String,
}

impl ApiError {
    /// Whether the request was at fault (a 4xx status) rather than the server (5xx).
    pub fn is_bad_input(&self) -> bool {
        (400..500).contains(&self.status)
    }

    /// `400`: a malformed parameter.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError { status: 400, message: message.into() }
    }

    /// `404`: an unknown file, game or search.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError { status: 404, message: message.into() }
    }

    /// `409`: a request that conflicts with the state (a finished game, saving turned off).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError { status: 409, message: message.into() }
    }

    /// `500`: the server failed (a file that cannot be read or written).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError { status: 500, message: message.into() }
    }

    /// `503`: too busy.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError { status: 503, message: message.into() }
    }

    /// The error as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "error": self.message, "status": self.status })
    }
}

/// The result of an API handler.
pub type ApiResult<T> = Result<T, ApiError>;
