# Workbench — the two commands a person needs:
#   make run    set everything up, build, and open the app window
#   make test   set everything up, build, and run every test
# Everything they need (apt packages, npm packages, tauri-driver) is installed by them.

SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(PATH)
export CARGO_TERM_COLOR ?= never

TAURI_DRIVER_VERSION := 2.1.0
STAMPS := .make
APP_BIN := target/debug/workbench-desktop
CLI_BIN := target/debug/workbench
SCRIPTED_BIN := target/debug/scripted-model

.PHONY: run test setup build ui app bindings check-bindings lint test-rust test-ui test-browser test-e2e bench clean

run: setup build
	scripts/run-app.sh $(APP_BIN)

test: setup build lint check-bindings test-rust test-ui test-browser test-e2e
	@echo "make test: every suite passed"

# ---- setup -------------------------------------------------------------------------------
setup: $(STAMPS)/system $(STAMPS)/ui-deps $(STAMPS)/e2e-deps $(STAMPS)/mcp-test-servers $(STAMPS)/tauri-driver

$(STAMPS)/system: scripts/setup-system.sh
	@mkdir -p $(STAMPS)
	scripts/setup-system.sh
	@command -v cargo >/dev/null || { echo "cargo not found: install Rust from https://rustup.rs"; exit 1; }
	@touch $@

$(STAMPS)/ui-deps: ui/package.json ui/package-lock.json
	@mkdir -p $(STAMPS)
	npm --prefix ui ci --no-audit --no-fund
	@touch $@

$(STAMPS)/e2e-deps: tests/e2e/package.json tests/e2e/package-lock.json
	@mkdir -p $(STAMPS)
	npm --prefix tests/e2e ci --no-audit --no-fund
	@touch $@

# Real MCP servers (server-everything, server-filesystem) the MCP tests connect to.
$(STAMPS)/mcp-test-servers: tests/mcp-servers/package.json tests/mcp-servers/package-lock.json
	@mkdir -p $(STAMPS)
	npm --prefix tests/mcp-servers ci --no-audit --no-fund
	@touch $@

$(STAMPS)/tauri-driver:
	@mkdir -p $(STAMPS)
	@if ! tauri-driver --help >/dev/null 2>&1; then \
	  cargo install tauri-driver --version $(TAURI_DRIVER_VERSION) --locked; fi
	@touch $@

# ---- build -------------------------------------------------------------------------------
build: ui app

ui:
	npm --prefix ui run build

app: ui
	cargo build --workspace --bins

bindings:
	rm -rf ui/src/bindings
	TS_RS_EXPORT_DIR=$(CURDIR)/ui/src/bindings cargo test -q -p workbench-core -p workbench-mcp --features workbench-core/ts,workbench-mcp/ts export_bindings

# The UI's TypeScript types are generated from the Rust types; fail if they drifted.
check-bindings:
	scripts/check-bindings.sh

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings

# ---- tests -------------------------------------------------------------------------------
test-rust:
	scripts/with-keyring.sh cargo test --workspace

test-ui:
	npm --prefix ui test

test-browser:
	npm --prefix ui run test:browser

test-e2e: app
	scripts/with-keyring.sh scripts/with-display.sh npm --prefix tests/e2e test

bench:
	cargo bench -p workbench-providers --bench stream_throughput
	cargo bench -p workbench-store --bench append_delta
	cargo bench -p workbench-mcp --bench connect_parallel
	cd ui && npm run bench

clean:
	cargo clean
	rm -rf $(STAMPS) ui/dist ui/node_modules tests/e2e/node_modules tests/mcp-servers/node_modules
