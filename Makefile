# The two commands of the README: `make site` and `make test`.
SITEGEN_RELEASE := .build/release/sitegen
SITEGEN_DEBUG := .build/debug/sitegen

.PHONY: site test dist deps test-deps bench instructions fuzz sanitize

## Installs what is missing, builds sitegen for release and builds the sample site into Output/.
## The release binary carries the Swift runtime, Foundation, libcmark, libyaml and Leaflet:
## it runs where neither the Swift toolchain nor those packages are installed.
site: deps
	Scripts/build-release.sh
	$(SITEGEN_RELEASE) build

## Writes the release files of this machine's architecture to dist/: the tarball, the .deb
## and SHA256SUMS.
dist:
	Scripts/dist.sh

## Runs every test: sitegen's declarations of libvips and libqrencode against their headers, the Swift
## suites, libvips's liborc programs made one thread at a time, the Mustache spec through the command line, the sample site through the W3C
## checker and a real browser (every published photo read back too), the docs' links and
## getting started, `serve` under a crowd, the linters over the workflows, the release files of `make dist`
## as a user gets them, through the GitHub Action's install script too, and a short pass of
## every fuzz target.
test: test-deps
	Scripts/check-c-abi.sh
	swift build --build-tests
	swift test --skip-build
	Scripts/check-vips-threads.sh $(SITEGEN_DEBUG)
	python3 Scripts/mustache-spec-check.py $(SITEGEN_DEBUG)
	Scripts/check-site.sh
	python3 Scripts/check-docs.py $(SITEGEN_DEBUG)
	python3 Scripts/serve-crowd.py $(SITEGEN_DEBUG) --slow 300 --listeners 300 --requests 20 --limit-ms 1000
	Scripts/check-workflows.sh $(SITEGEN_DEBUG)
	Scripts/dist.sh
	Scripts/check-dist.sh
	Scripts/check-action.sh
	FUZZ_SECONDS=10 Scripts/fuzz.sh

## Runs each fuzz target for FUZZ_SECONDS (60) under libFuzzer and AddressSanitizer
## (CONTRIBUTING.md#fuzzing-and-sanitizers).
fuzz: deps
	Scripts/fuzz.sh

## Runs the Swift suites under AddressSanitizer, and the concurrent ones under
## ThreadSanitizer.
sanitize: test-deps
	Scripts/sanitize.sh

## Prints the benchmark figures (release builds): Mustache renders, full site builds, then
## photos beside Hugo's image pipeline (Scripts/bench-photos.sh).
bench: deps
	Scripts/bench.sh
	Scripts/bench-photos.sh

## Prints the instructions (callgrind) of a full build, a rebuild with nothing changed and
## one after an article is edited, of the 1,000 + 5,000 corpus (`Scripts/instructions.sh
## large` for others).
instructions: deps
	Scripts/instructions.sh

deps:
	@Scripts/install-deps.sh

test-deps:
	@Scripts/install-deps.sh --test
