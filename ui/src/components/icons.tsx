/** Small inline icons; decorative (the buttons carry aria-labels). */
const base = { width: 16, height: 16, viewBox: "0 0 16 16", fill: "none", stroke: "currentColor", strokeWidth: 1.5, strokeLinecap: "round", strokeLinejoin: "round", "aria-hidden": true } as const;

export const PencilIcon = () => (
  <svg {...base}>
    <path d="M11 2.5l2.5 2.5L6 12.5 3 13l.5-3z" />
  </svg>
);
export const TrashIcon = () => (
  <svg {...base}>
    <path d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 8.5h5.8l.6-8.5" />
  </svg>
);
export const PlusIcon = () => (
  <svg {...base}>
    <path d="M8 3v10M3 8h10" />
  </svg>
);
export const GearIcon = () => (
  <svg {...base}>
    <circle cx="8" cy="8" r="2.2" />
    <path d="M8 1.8v1.6M8 12.6v1.6M1.8 8h1.6M12.6 8h1.6M3.6 3.6l1.1 1.1M11.3 11.3l1.1 1.1M3.6 12.4l1.1-1.1M11.3 4.7l1.1-1.1" />
  </svg>
);
export const WrenchIcon = () => (
  <svg {...base}>
    <path d="M10.2 2.3a3.2 3.2 0 0 0-3.9 4.1L2.6 10.1a1.4 1.4 0 0 0 2 2l3.7-3.7a3.2 3.2 0 0 0 4.1-3.9l-1.9 1.9-1.7-.4-.4-1.7z" />
  </svg>
);
export const CheckIcon = () => (
  <svg {...base}>
    <path d="M3.5 8.5l3 3 6-7" />
  </svg>
);
export const CrossIcon = () => (
  <svg {...base}>
    <path d="M4 4l8 8M12 4l-8 8" />
  </svg>
);
export const PauseIcon = () => (
  <svg {...base}>
    <circle cx="8" cy="8" r="5.5" />
    <path d="M6.5 6v4M9.5 6v4" />
  </svg>
);
export const CopyIcon = () => (
  <svg {...base}>
    <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
    <path d="M10.5 5.5V3.8A1.3 1.3 0 0 0 9.2 2.5H3.8a1.3 1.3 0 0 0-1.3 1.3v5.4a1.3 1.3 0 0 0 1.3 1.3h1.7" />
  </svg>
);
export const TerminalIcon = () => (
  <svg {...base}>
    <rect x="1.8" y="2.8" width="12.4" height="10.4" rx="1.5" />
    <path d="M4.5 6l2 2-2 2M8.5 10.5h3" />
  </svg>
);
export const FileIcon = () => (
  <svg {...base}>
    <path d="M4 1.8h5l3 3v9.4H4z" />
    <path d="M9 1.8v3h3" />
  </svg>
);
export const GlobeIcon = () => (
  <svg {...base}>
    <circle cx="8" cy="8" r="6" />
    <path d="M2 8h12M8 2c1.8 2 1.8 10 0 12M8 2c-1.8 2-1.8 10 0 12" />
  </svg>
);
export const PlugIcon = () => (
  <svg {...base}>
    <path d="M5.5 2v3M10.5 2v3M4 5h8v2.5a4 4 0 0 1-8 0zM8 11.5V14" />
  </svg>
);
export const SearchIcon = () => (
  <svg {...base}>
    <circle cx="7" cy="7" r="4.3" />
    <path d="M10.2 10.2L14 14" />
  </svg>
);
export const SparkIcon = () => (
  <svg {...base}>
    <path d="M8 2v3M8 11v3M2 8h3M11 8h3M3.8 3.8l2 2M10.2 10.2l2 2M3.8 12.2l2-2M10.2 5.8l2-2" />
  </svg>
);
export const FilesIcon = () => (
  <svg {...base}>
    <path d="M4 1.8h5l3 3v9.4H4z" />
    <path d="M9 1.8v3h3M6 8h4M6 10.5h4" />
  </svg>
);
export const ExternalIcon = () => (
  <svg {...base}>
    <path d="M9 2.5h4.5V7M13.5 2.5L7.5 8.5M11.5 9.5v4h-9v-9h4" />
  </svg>
);
export const FolderIcon = () => (
  <svg {...base}>
    <path d="M2 4.5a1 1 0 0 1 1-1h3l1.5 1.5H13a1 1 0 0 1 1 1V12a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1z" />
  </svg>
);
export const PaperclipIcon = () => (
  <svg {...base}>
    <path d="M10.5 4.5l-5 5a1.4 1.4 0 0 0 2 2l5.2-5.2a2.6 2.6 0 0 0-3.7-3.7L3.8 7.8a3.8 3.8 0 0 0 5.4 5.4l4.3-4.3" />
  </svg>
);
