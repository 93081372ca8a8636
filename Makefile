# The two commands of the README: `make site` and `make test`.
SITEGEN_RELEASE := .build/release/sitegen
SITEGEN_DEBUG := .build/debug/sitegen

.PHONY: site test deps test-deps bench instructions

## Installs what is missing, builds sitegen for release and builds the sample site into Output/.
## The release binary carries the Swift runtime and Foundation (--static-swift-stdlib): it
## starts in 5 ms instead of 14, and runs where the Swift toolchain is not installed.
site: deps
	swift build -c release --product sitegen --static-swift-stdlib
	$(SITEGEN_RELEASE) build

## Runs every test: the Swift suites, the Mustache spec through the command line, and the
## sample site through the W3C checker and a real browser.
test: test-deps
	swift build --build-tests
	swift test --skip-build
	python3 Scripts/mustache-spec-check.py $(SITEGEN_DEBUG)
	Scripts/check-site.sh

## Prints the benchmark figures (release builds): Mustache renders, then full site builds.
bench: deps
	Scripts/bench.sh

## Prints the instructions (callgrind) of a full build, a rebuild with nothing changed and
## one after an article is edited, of the 1,000 + 5,000 corpus (`Scripts/instructions.sh
## large` for others).
instructions: deps
	Scripts/instructions.sh

deps:
	@Scripts/install-deps.sh

test-deps:
	@Scripts/install-deps.sh --test
