/** The Caravan mark: a camel-coloured parcel on the road from China to Russia. */
export function Logo({ size = 24 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" role="img" aria-label="Caravan">
      <rect x="6" y="12" width="36" height="26" rx="4" fill="#c87619" />
      <path d="M6 20h36M24 12v26" stroke="#fff" strokeWidth="3" />
      <circle cx="14" cy="42" r="3" fill="#394b59" />
      <circle cx="34" cy="42" r="3" fill="#394b59" />
    </svg>
  );
}
