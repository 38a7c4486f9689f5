import { RELEASE_SYNC, newQuickJSWASMModuleFromVariant, newVariant, type CustomizeVariantOptions, type QuickJSWASMModule } from 'quickjs-emscripten';

const PAGE_BYTES = 64 * 1024;
/** The QuickJS build declares 16 MiB (256 pages) of initial memory: its data, its stack and a first heap. */
const INITIAL_PAGES = 256;
/** The smallest block the ballast fills the initial heap with; the crumbs left are under this. */
const SMALLEST_BALLAST_BYTES = 64;

/** A host-side allocation in the WASM memory failed: the sandbox's memory is full. */
export class SandboxMemoryFull extends Error {
  constructor(bytes: number) {
    super(`the sandbox memory has no room for ${bytes} more bytes`);
  }
}

/** The part of the Emscripten module the sandbox allocates with itself. */
interface EmscriptenHeap {
  _malloc(size: number): number;
  _free(pointer: number): void;
}

/** The WebAssembly API used here (the project compiles without the DOM lib, which declares it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
const { WebAssembly: Wasm } = globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory } };

/**
 * A QuickJS module whose whole WebAssembly memory is capped, so that everything a script keeps
 * alive (objects, strings, ArrayBuffer backing stores, the runtime itself) fits in `heapBytes`.
 *
 * Why not QuickJS's own limit: on Emscripten `malloc_usable_size` is unavailable, so QuickJS
 * counts 8 bytes per allocation and its limit only refuses a single allocation larger than it
 * (three 20 MiB arrays passed a 32 MiB limit). The memory is therefore capped where the engine
 * enforces it, in `WebAssembly.Memory.maximum`: the initial 16 MiB plus `heapBytes`. The free
 * part of those initial 16 MiB is filled with ballast once, at load, so the heap a script can
 * reach is only what lies above them. Only the ballast's block headers are written, so it costs
 * next to no resident memory.
 */
export class SandboxModule {
  private constructor(
    readonly quickjs: QuickJSWASMModule,
    private readonly memory: WasmMemory,
    private readonly growth: GrowthWatch,
    private readonly heap: EmscriptenHeap,
    private readonly loadedBytes: number,
  ) {}

  static async load(heapBytes: number): Promise<SandboxModule> {
    const maximum = INITIAL_PAGES + Math.ceil(heapBytes / PAGE_BYTES);
    const memory = new Wasm.Memory({ initial: INITIAL_PAGES, maximum });
    const growth = new GrowthWatch(memory, maximum);
    let heap: EmscriptenHeap | undefined;
    // postRun is Emscripten's documented hook; it hands over the module object with its malloc.
    const emscriptenModule: CustomizeVariantOptions['emscriptenModule'] & { postRun: Array<(module: EmscriptenHeap) => void> } = {
      postRun: [(module) => (heap = module)],
    };
    const quickjs = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory, emscriptenModule }));
    if (!heap) throw new Error('the QuickJS module did not start');
    growth.frozen = true;
    fillInitialHeap(heap);
    growth.frozen = false;
    guardHostAllocations(heap);
    return new SandboxModule(quickjs, memory, growth, heap, memory.buffer.byteLength);
  }

  /** Starts watching for a full heap anew (at the start of each run). */
  startRun(): void {
    this.growth.exhausted = false;
  }

  /**
   * True when, since startRun, the heap needed to grow past its cap and could not: an allocation
   * failed for lack of memory. QuickJS then throws "out of memory" (which a script may catch, or
   * which may only reject a promise nobody awaits), or null when even that error cannot be
   * allocated; this tells every such case apart from a script that fails on its own.
   */
  ranOutOfMemory(): boolean {
    return this.growth.exhausted;
  }

  /** How far the memory has grown since load: it never shrinks, so its worker is recycled past a point. */
  grownBytes(): number {
    return this.memory.buffer.byteLength - this.loadedBytes;
  }

  /** Sets `bytes` aside until the returned function is called (room the host needs after a script filled the heap). */
  reserve(bytes: number): () => void {
    let pointer = this.heap._malloc(bytes);
    return () => {
      if (pointer) this.heap._free(pointer);
      pointer = 0;
    };
  }
}

/**
 * Emscripten's heap resize (emscripten_resize_heap) calls the memory object's grow() with up to
 * three sizes, generous first, each covering the allocation, and gives up after the third
 * refusal: three refusals in a row are an allocation that failed.
 */
const ATTEMPTS_PER_RESIZE = 3;

class GrowthWatch {
  /** While the ballast is laid, no growth at all. */
  frozen = false;
  /** Set when a heap resize failed; reset by the sandbox at the start of each run. */
  exhausted = false;
  private refusalsInARow = 0;

  constructor(memory: WasmMemory, maximumPages: number) {
    const grow = memory.grow.bind(memory);
    Object.defineProperty(memory, 'grow', {
      value: (pages: number) => {
        if (this.frozen || memory.buffer.byteLength / PAGE_BYTES + pages > maximumPages) {
          if (++this.refusalsInARow === ATTEMPTS_PER_RESIZE) {
            this.refusalsInARow = 0;
            this.exhausted = true;
          }
          throw new RangeError('the sandbox memory is at its limit');
        }
        this.refusalsInARow = 0;
        return grow(pages);
      },
    });
  }
}

/** Allocates every free byte of the initial memory (growth is refused meanwhile), largest blocks first. */
function fillInitialHeap(heap: EmscriptenHeap): void {
  for (let size = INITIAL_PAGES * PAGE_BYTES; size >= SMALLEST_BALLAST_BYTES;) if (!heap._malloc(size)) size >>= 1;
}

/**
 * quickjs-emscripten copies strings and argument lists into the heap with malloc and does not
 * check for NULL: with a full heap it would write at address 0, over QuickJS's own data. A failed
 * host-side allocation throws instead (the run fails and its worker is retired).
 */
function guardHostAllocations(heap: EmscriptenHeap): void {
  const malloc = heap._malloc.bind(heap);
  heap._malloc = (size: number) => {
    const pointer = malloc(size);
    if (!pointer && size > 0) throw new SandboxMemoryFull(size);
    return pointer;
  };
}
